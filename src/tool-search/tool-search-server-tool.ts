import type { ServerToolDefinition } from '../model/model.js';

/** The two variants of the Messages API's tool search server tool. */
export type ToolSearchVariant = 'regex' | 'bm25';

/** The server tool's definition for a variant, as the Messages API documents it. */
export function toolSearchServerTool(variant: ToolSearchVariant): ServerToolDefinition {
  return variant === 'regex'
    ? { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' }
    : { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
}

/** Which variant a server tool definition or a `server_tool_use` name stands for, if any. */
export function toolSearchVariantOf(typeOrName: unknown): ToolSearchVariant | undefined {
  if (typeof typeOrName !== 'string') return undefined;
  if (typeOrName.startsWith('tool_search_tool_regex')) return 'regex';
  if (typeOrName.startsWith('tool_search_tool_bm25')) return 'bm25';
  return undefined;
}
