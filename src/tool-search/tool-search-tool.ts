import { z } from 'zod/v4';
import type { ToolDefinition } from '../model/model.js';
import { builtOnFirstUse } from '../tools/built-on-first-use.js';
import { defineTool } from '../tools/define-tool.js';
import { toolOutput } from '../tools/tool-output.js';
import type { Tool } from '../tools/types.js';
import type { DeferredToolCatalog } from './deferred-tool-catalog.js';

/** The client-side tool search's name. */
export const TOOL_SEARCH_TOOL_NAME = 'ToolSearch';

const DEFAULT_RESULTS = 5;
const MAX_RESULTS = 20;

const inputSchema = builtOnFirstUse(() =>
  z.object({
    query: z
      .string()
      .min(1)
      .describe('Keywords describing the capability you need (e.g. "create github issue"), or "select:name1,name2" to load tools by exact name.'),
    max_results: z.number().int().min(1).max(MAX_RESULTS).optional().describe(`How many tools to return at most (default ${DEFAULT_RESULTS}).`),
  }),
);

/** Options of {@link createToolSearchTool}. */
export interface ToolSearchToolOptions {
  /** The deferred tools to search. */
  catalog: DeferredToolCatalog;
  /**
   * Answer with `tool_reference` blocks the model expands into definitions (models whose
   * `capabilities.toolSearch` is `'server'` or `'tool-reference'`); else with the definitions as text.
   */
  references: boolean;
}

function describe(references: boolean): string {
  return [
    'Finds tools that are available to you but not loaded yet (deferred tools), so you can call them.',
    'Search by keywords describing what you need, e.g. "send slack message" or "github pull request review"; or load tools you already know by exact name with "select:name1,name2".',
    references
      ? 'The tools found become available to call right after this search.'
      : "The answer lists each tool found with its description and input schema; call it by name like any other tool, with input matching that schema.",
    'If nothing relevant is found, search again with other words before concluding that no such tool exists.',
  ].join('\n');
}

/** The tools a `select:` query names, each once (in the order first named), and the names no deferred tool has. */
function selected(catalog: DeferredToolCatalog, query: string): { found: ToolDefinition[]; unknown: string[] } {
  const names = new Set(query.slice('select:'.length).split(',').map((name) => name.trim()).filter(Boolean));
  const found: ToolDefinition[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const definition = catalog.get(name);
    if (definition) found.push(definition);
    else unknown.push(name);
  }
  return { found, unknown };
}

function asText(found: ToolDefinition[]): string {
  const tools = found.map(
    (definition) => `<tool name="${definition.name}">\nDescription: ${definition.description}\nInput schema: ${JSON.stringify(definition.input_schema)}\n</tool>`,
  );
  return `Found ${found.length} tool${found.length === 1 ? '' : 's'}. Call them by name like any other tool:\n\n${tools.join('\n\n')}`;
}

/**
 * The client-side `ToolSearch` tool, for models without the provider's tool search: keyword
 * search (BM25 over names, descriptions and arguments) or `select:` by name over the agent's
 * deferred tools. Read-only, so it runs in every mode without asking.
 */
export function createToolSearchTool(options: ToolSearchToolOptions): Tool<z.infer<ReturnType<typeof inputSchema>>> {
  const { catalog, references } = options;
  return defineTool({
    name: TOOL_SEARCH_TOOL_NAME,
    description: describe(references),
    inputSchema: inputSchema(),
    readOnly: true,
    execute: ({ input }) => {
      const query = input.query.trim();
      const limit = input.max_results ?? DEFAULT_RESULTS;
      const { found, unknown } = query.startsWith('select:') ? selected(catalog, query) : { found: catalog.searchKeywords(query, limit), unknown: [] };
      const missing = unknown.length ? ` No deferred tool is named ${unknown.map((name) => JSON.stringify(name)).join(', ')}.` : '';
      if (found.length === 0) {
        return `No deferred tool matched "${query}".${missing} Try other keywords (${catalog.size} deferred tools are available).`;
      }
      if (!references) return asText(found) + (missing ? `\n\n${missing.trim()}` : '');
      return toolOutput([
        ...found.map((definition) => ({ type: 'tool_reference' as const, tool_name: definition.name })),
        ...(missing ? [{ type: 'text' as const, text: missing.trim() }] : []),
      ]);
    },
  });
}
