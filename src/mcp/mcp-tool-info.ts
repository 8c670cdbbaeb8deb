import type { ToolAnnotations } from '../tools/types.js';

/** A tool as an MCP server lists it (`tools/list`), reduced to what the agent uses. */
export interface McpToolInfo {
  /** The tool's name on the server. */
  name: string;
  title?: string;
  description?: string;
  /** JSON Schema of the input (an object schema, by the protocol). */
  inputSchema: Record<string, unknown>;
  annotations?: ToolAnnotations;
  /**
   * Why the tool cannot be offered, when it cannot: a phrase that follows "lists the tool x", e.g.
   * `in a shape the protocol does not allow (inputSchema.type: …)`.
   */
  problem?: string;
}

const ANNOTATION_KEYS = ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** Reads one listed tool, keeping only the annotations this library knows (with their types checked). */
export function toMcpToolInfo(tool: Record<string, unknown>): McpToolInfo {
  const info: McpToolInfo = { name: String(tool.name), inputSchema: (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown> };
  if (typeof tool.title === 'string') info.title = tool.title;
  if (typeof tool.description === 'string') info.description = tool.description;
  const raw = tool.annotations as Record<string, unknown> | undefined;
  if (raw && typeof raw === 'object') {
    const annotations: Record<string, unknown> = {};
    for (const key of ANNOTATION_KEYS) {
      const value = raw[key];
      if (key === 'title' ? typeof value === 'string' : typeof value === 'boolean') annotations[key] = value;
    }
    if (Object.keys(annotations).length) info.annotations = annotations as ToolAnnotations;
  }
  return info;
}
