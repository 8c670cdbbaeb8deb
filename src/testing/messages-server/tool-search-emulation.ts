import type { ContentBlock, ToolSearchToolResultBlock } from '../../model/messages.js';
import type { ToolDefinition } from '../../model/model.js';
import { RegexSearchStopped, RegexSearchWorker } from '../../node/workspace-tools/regex-search-worker.js';
import { checkSearchPattern, DeferredToolCatalog, rankRegexMatches, searchableTool, searchedTexts, toolSearchVariantOf } from '../../tool-search/index.js';
import type { MessagesRequestBody, MessagesServerTurn } from './messages-server-types.js';

/** How many tools a search returns when the call sets no `limit` (the API returns a few). */
const DEFAULT_LIMIT = 5;

/**
 * How long a regex search may run. The pattern and the texts both come from the request, so a
 * pattern that backtracks exponentially (`(a+)+$` against a long run of a's) is matched in a worker
 * and stopped at this deadline, as the Grep tool does, rather than blocking the server.
 */
const REGEX_SEARCH_BUDGET_MS = 2_000;

type RawTool = Record<string, unknown>;

/** The request's deferred function tools, searchable. */
function deferredCatalog(body: MessagesRequestBody): DeferredToolCatalog {
  const deferred = (body.tools ?? []).filter((tool: RawTool) => tool.defer_loading === true && (tool.type === undefined || tool.type === 'custom'));
  return new DeferredToolCatalog(deferred.map((tool) => ({ name: String(tool.name), description: String(tool.description ?? ''), input_schema: (tool.input_schema ?? {}) as ToolDefinition['input_schema'] })));
}

/**
 * The names of the tools the pattern finds, matched in a worker with a deadline, or the error the
 * API answers when the pattern is refused or the search runs out of time.
 */
async function regexNames(catalog: DeferredToolCatalog, pattern: string, limit: number): Promise<{ names: string[] } | { errorCode: string; message: string }> {
  const checked = checkSearchPattern(pattern);
  if (!checked.ok) return { errorCode: 'invalid_tool_input', message: checked.message };
  const tools = catalog.definitions().map(searchableTool);
  const texts = searchedTexts(tools);
  const searcher = new RegexSearchWorker({ regexp: checked.regExp, timeoutMs: REGEX_SEARCH_BUDGET_MS, signal: new AbortController().signal });
  try {
    const found = new Set((await searcher.matchingTexts(texts)).map((index) => texts[index]));
    return { names: rankRegexMatches(tools, (text) => found.has(text), limit) };
  } catch (error) {
    if (!(error instanceof RegexSearchStopped)) throw error;
    return {
      errorCode: 'execution_time_exceeded',
      message: `The regular expression ${JSON.stringify(pattern)} ran past the ${REGEX_SEARCH_BUDGET_MS} ms search budget (nested quantifiers such as (a+)+ backtrack exponentially). Simplify the pattern.`,
    };
  } finally {
    await searcher.close();
  }
}

async function searchResult(block: Record<string, unknown>, catalog: DeferredToolCatalog, variant: 'regex' | 'bm25'): Promise<ToolSearchToolResultBlock> {
  const input = (block.input ?? {}) as { pattern?: unknown; query?: unknown; limit?: unknown };
  const limit = typeof input.limit === 'number' && input.limit > 0 ? Math.floor(input.limit) : DEFAULT_LIMIT;
  const answer = (content: ToolSearchToolResultBlock['content']): ToolSearchToolResultBlock => ({ type: 'tool_search_tool_result', tool_use_id: String(block.id), content });
  const references = (names: string[]) => answer({ type: 'tool_search_tool_search_result', tool_references: names.map((tool_name) => ({ type: 'tool_reference', tool_name })) });
  const error = (error_code: string, message: string) => answer({ type: 'tool_search_tool_result_error', error_code, error_message: message });
  if (variant === 'regex') {
    if (typeof input.pattern !== 'string') return error('invalid_tool_input', 'The regex tool search needs a string "pattern".');
    const found = await regexNames(catalog, input.pattern, limit);
    return 'names' in found ? references(found.names) : error(found.errorCode, found.message);
  }
  if (typeof input.query !== 'string' || input.query.trim() === '') return error('invalid_tool_input', 'The BM25 tool search needs a non-empty string "query".');
  return references(catalog.searchKeywords(input.query, limit).map((definition) => definition.name));
}

/**
 * Plays the provider's part of tool search in a scripted turn: after each `server_tool_use` of a
 * tool search server tool the request declares (regex or BM25 variant), and not already followed
 * by its result, inserts the `tool_search_tool_result` the API would send, searching the request's
 * deferred tools (names, descriptions, argument names and descriptions). Regex patterns are read
 * as Python `re.search` patterns and matched in a worker thread with a deadline (a pattern that
 * backtracks too long gets the `execution_time_exceeded` error block); the BM25 ranking
 * approximates the API's.
 */
export async function emulateToolSearch(turn: MessagesServerTurn, body: MessagesRequestBody): Promise<MessagesServerTurn> {
  const declared = new Map<string, 'regex' | 'bm25'>();
  for (const tool of body.tools ?? []) {
    const variant = toolSearchVariantOf(tool.type);
    if (variant) declared.set(String(tool.name), variant);
  }
  if (declared.size === 0 || !turn.content.some((block) => block.type === 'server_tool_use')) return turn;
  let catalog: DeferredToolCatalog | undefined;
  const content: ContentBlock[] = [];
  for (const [index, block] of turn.content.entries()) {
    content.push(block);
    const variant = block.type === 'server_tool_use' ? declared.get(String(block.name)) : undefined;
    if (!variant) continue;
    const next = turn.content[index + 1];
    if (next?.type === 'tool_search_tool_result' && next.tool_use_id === (block as { id?: unknown }).id) continue;
    catalog ??= deferredCatalog(body);
    content.push(await searchResult(block as Record<string, unknown>, catalog, variant));
  }
  return { ...turn, content };
}
