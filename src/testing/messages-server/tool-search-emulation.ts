import type { ContentBlock, ToolSearchToolResultBlock } from '../../model/messages.js';
import type { ToolDefinition } from '../../model/model.js';
import { DeferredToolCatalog, toolSearchVariantOf } from '../../tool-search/index.js';
import type { MessagesRequestBody, MessagesServerTurn } from './messages-server-types.js';

/** How many tools a search returns when the call sets no `limit` (the API returns a few). */
const DEFAULT_LIMIT = 5;

type RawTool = Record<string, unknown>;

/** The request's deferred function tools, searchable. */
function deferredCatalog(body: MessagesRequestBody): DeferredToolCatalog {
  const deferred = (body.tools ?? []).filter((tool: RawTool) => tool.defer_loading === true && (tool.type === undefined || tool.type === 'custom'));
  return new DeferredToolCatalog(deferred.map((tool) => ({ name: String(tool.name), description: String(tool.description ?? ''), input_schema: (tool.input_schema ?? {}) as ToolDefinition['input_schema'] })));
}

function searchResult(block: Record<string, unknown>, catalog: DeferredToolCatalog, variant: 'regex' | 'bm25'): ToolSearchToolResultBlock {
  const input = (block.input ?? {}) as { pattern?: unknown; query?: unknown; limit?: unknown };
  const limit = typeof input.limit === 'number' && input.limit > 0 ? Math.floor(input.limit) : DEFAULT_LIMIT;
  const answer = (content: ToolSearchToolResultBlock['content']): ToolSearchToolResultBlock => ({ type: 'tool_search_tool_result', tool_use_id: String(block.id), content });
  const references = (names: string[]) => answer({ type: 'tool_search_tool_search_result', tool_references: names.map((tool_name) => ({ type: 'tool_reference', tool_name })) });
  const invalid = (message: string) => answer({ type: 'tool_search_tool_result_error', error_code: 'invalid_tool_input', error_message: message });
  if (variant === 'regex') {
    if (typeof input.pattern !== 'string') return invalid('The regex tool search needs a string "pattern".');
    const found = catalog.searchRegex(input.pattern, limit);
    return found.ok ? references(found.names) : invalid(found.message);
  }
  if (typeof input.query !== 'string' || input.query.trim() === '') return invalid('The BM25 tool search needs a non-empty string "query".');
  return references(catalog.searchKeywords(input.query, limit).map((definition) => definition.name));
}

/**
 * Plays the provider's part of tool search in a scripted turn: after each `server_tool_use` of a
 * tool search server tool the request declares (regex or BM25 variant), and not already followed
 * by its result, inserts the `tool_search_tool_result` the API would send, searching the request's
 * deferred tools (names, descriptions, argument names and descriptions). Regex patterns are read
 * as Python `re.search` patterns; the BM25 ranking approximates the API's.
 */
export function emulateToolSearch(turn: MessagesServerTurn, body: MessagesRequestBody): MessagesServerTurn {
  const declared = new Map<string, 'regex' | 'bm25'>();
  for (const tool of body.tools ?? []) {
    const variant = toolSearchVariantOf(tool.type);
    if (variant) declared.set(String(tool.name), variant);
  }
  if (declared.size === 0 || !turn.content.some((block) => block.type === 'server_tool_use')) return turn;
  let catalog: DeferredToolCatalog | undefined;
  const content: ContentBlock[] = [];
  turn.content.forEach((block, index) => {
    content.push(block);
    const variant = block.type === 'server_tool_use' ? declared.get(String(block.name)) : undefined;
    if (!variant) return;
    const next = turn.content[index + 1];
    if (next?.type === 'tool_search_tool_result' && next.tool_use_id === (block as { id?: unknown }).id) return;
    catalog ??= deferredCatalog(body);
    content.push(searchResult(block as Record<string, unknown>, catalog, variant));
  });
  return { ...turn, content };
}
