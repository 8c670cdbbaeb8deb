import type { ToolDefinition } from '../model/model.js';

/** The text of one tool that tool search looks at, by field. */
export interface SearchableTool {
  /** The tool's name as the model calls it. */
  name: string;
  description: string;
  /** Names of the input's properties (nested ones too). */
  argumentNames: string[];
  /** Descriptions of the input's properties. */
  argumentDescriptions: string[];
}

const MAX_DEPTH = 4;

/**
 * What tool search reads of a tool: its name, description, and the names and descriptions of its
 * arguments (the fields the Messages API's tool search reads).
 */
export function searchableTool(definition: Pick<ToolDefinition, 'name' | 'description' | 'input_schema'>): SearchableTool {
  const argumentNames: string[] = [];
  const argumentDescriptions: string[] = [];
  const visit = (schema: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || typeof schema !== 'object' || schema === null) return;
    const properties = (schema as { properties?: unknown }).properties;
    if (typeof properties === 'object' && properties !== null) {
      for (const [name, property] of Object.entries(properties)) {
        argumentNames.push(name);
        const description = (property as { description?: unknown } | null)?.description;
        if (typeof description === 'string') argumentDescriptions.push(description);
        visit(property, depth + 1);
      }
    }
    visit((schema as { items?: unknown }).items, depth + 1);
  };
  visit(definition.input_schema, 0);
  return { name: definition.name, description: definition.description ?? '', argumentNames, argumentDescriptions };
}
