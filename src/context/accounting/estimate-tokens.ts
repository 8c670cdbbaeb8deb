import type { ContentBlock, Message, TextBlock } from '../../model/messages.js';
import type { ToolDefinition } from '../../model/model.js';
import { estimateImageTokens, estimatePdfPages, PDF_PAGE_TOKEN_ESTIMATE } from './estimate-media-tokens.js';
import { argumentError, isObjectValue } from '../../errors/argument-error.js';
import { safeJson } from '../../model/safe-json.js';
import { countAsciiCharacters } from './count-ascii-characters.js';

/**
 * Tokens assumed for an image whose size is not known: about what the API charges for the
 * largest image it takes without downscaling (width × height / 750 for ~1.15 megapixels).
 */
export const IMAGE_TOKEN_ESTIMATE = 1600;

/** Framing tokens the API adds per message (role, separators). */
const MESSAGE_OVERHEAD = 4;
/** Framing tokens per content block. */
const BLOCK_OVERHEAD = 3;
/** The tool-use system prompt the API adds when a request has tools. */
const TOOLS_OVERHEAD = 350;

/**
 * A rough token count of a text: a quarter token per ASCII character (English prose and code run
 * at 3.5–4.5 characters a token) and one per other UTF-16 unit (CJK, emoji, most accented text
 * is denser). Meant to be calibrated against reported usage, not trusted alone.
 * @param text - any text.
 */
export function estimateTextTokens(text: string): number {
  if (typeof text !== 'string') throw argumentError('estimateTextTokens', 'text', 'a string', text);
  return estimateTextTokensUnchecked(text);
}

/** {@link estimateTextTokens} without its argument checks, for the library's own calls (their arguments are known good). @internal */
export function estimateTextTokensUnchecked(text: string): number {
  const ascii = countAsciiCharacters(text);
  return Math.ceil(ascii / 4 + (text.length - ascii));
}

/**
 * A rough token count of one content block: its text, a tool call's name and JSON input, a tool
 * result's content, an image by its size (at most {@link IMAGE_TOKEN_ESTIMATE}), a PDF by its pages,
 * the JSON of any other block.
 * @param block - a content block in wire shape.
 */
export function estimateBlockTokens(block: ContentBlock): number {
  if (!isObjectValue(block)) throw argumentError('estimateBlockTokens', 'block', "a content block ({ type: 'text', text })", block);
  return estimateBlockTokensUnchecked(block);
}

/** {@link estimateBlockTokens} without its argument checks, for the library's own calls (their arguments are known good). @internal */
export function estimateBlockTokensUnchecked(block: ContentBlock): number {
  return BLOCK_OVERHEAD + blockBody(block);
}

function blockBody(block: ContentBlock): number {
  const record = block as unknown as Record<string, unknown>;
  switch (block.type) {
    case 'text':
      return estimateTextTokensUnchecked(String(record.text ?? ''));
    case 'thinking':
      return estimateTextTokensUnchecked(String(record.thinking ?? ''));
    case 'redacted_thinking':
      return Math.ceil(String(record.data ?? '').length / 4);
    case 'tool_use':
    case 'server_tool_use':
      return estimateTextTokensUnchecked(String(record.name ?? '')) + estimateTextTokensUnchecked(safeJson(record.input));
    case 'tool_result': {
      const content = record.content;
      if (typeof content === 'string') return estimateTextTokensUnchecked(content);
      if (!Array.isArray(content)) return 0;
      return content.reduce<number>((sum, inner: ContentBlock) => sum + estimateBlockTokensUnchecked(inner), 0);
    }
    case 'image':
      return estimateImageTokens(record.source, IMAGE_TOKEN_ESTIMATE);
    case 'document':
      return documentBody(block, record);
    default:
      return estimateTextTokensUnchecked(safeJson(record));
  }
}

/**
 * A document by what the API makes of it: a PDF by its pages (not its base64, which the API never
 * reads as text: counted as text, a 1 MB PDF of a dozen pages was a third of a million tokens and
 * set off a compaction), a text or content document by its text, plus its title and context.
 */
function documentBody(block: object, record: Record<string, unknown>): number {
  const source = (record.source ?? {}) as { type?: unknown; data?: unknown; media_type?: unknown; content?: unknown };
  let body: number;
  if (source.type === 'text') body = estimateTextTokensUnchecked(String(source.data ?? ''));
  else if (source.type === 'content') {
    const content = source.content;
    body = typeof content === 'string' ? estimateTextTokensUnchecked(content) : Array.isArray(content) ? content.reduce<number>((sum, inner: ContentBlock) => sum + estimateBlockTokensUnchecked(inner), 0) : 0;
  } else if (source.type === 'base64' && typeof source.data === 'string') body = estimatePdfPages(block, source.data) * PDF_PAGE_TOKEN_ESTIMATE;
  // A URL or a file id: its pages are not known here; counted as one.
  else body = PDF_PAGE_TOKEN_ESTIMATE;
  for (const field of ['title', 'context'] as const) if (typeof record[field] === 'string') body += estimateTextTokensUnchecked(record[field]);
  return body;
}

/**
 * A rough token count of one message, framing included.
 * @param message - a message in wire shape.
 */
export function estimateMessageTokens(message: Message): number {
  if (!isObjectValue(message) || (typeof message.content !== 'string' && !Array.isArray(message.content))) throw argumentError('estimateMessageTokens', 'message', 'a message ({ role, content })', message);
  return estimateMessageTokensUnchecked(message);
}

/** {@link estimateMessageTokens} without its argument checks, for the library's own calls (their arguments are known good). @internal */
export function estimateMessageTokensUnchecked(message: Message): number {
  if (typeof message.content === 'string') return MESSAGE_OVERHEAD + BLOCK_OVERHEAD + estimateTextTokensUnchecked(message.content);
  let total = MESSAGE_OVERHEAD;
  for (const block of message.content) total += estimateBlockTokensUnchecked(block);
  return total;
}

/**
 * A rough token count of the fixed prefix of a request: system blocks and tool definitions (with
 * the tool-use system prompt the API adds when there are tools). A deferred tool
 * (`defer_loading: true`) costs nothing here: the provider keeps its definition out of the context
 * until tool search finds it, and then it is counted where it is loaded.
 * @param prefix - the request's `system` and `tools`.
 */
export function estimatePrefixTokens(prefix: { system: readonly TextBlock[]; tools: readonly ToolDefinition[] }): number {
  if (!isObjectValue(prefix) || !Array.isArray(prefix.system) || !Array.isArray(prefix.tools)) throw argumentError('estimatePrefixTokens', 'prefix', 'an object with the system blocks and the tool definitions ({ system: [], tools: [] })', prefix);
  return estimatePrefixTokensWith(prefix, estimateToolDefinitionTokens);
}

/** {@link estimatePrefixTokens} with the tools' estimates from `toolTokens` (a cache, say). @internal */
export function estimatePrefixTokensWith(prefix: { system: readonly TextBlock[]; tools: readonly ToolDefinition[] }, toolTokens: (tool: ToolDefinition) => number): number {
  let total = 0;
  for (const block of prefix.system) total += BLOCK_OVERHEAD + estimateTextTokensUnchecked(block.text);
  let loaded = false;
  for (const tool of prefix.tools) {
    if (tool.defer_loading === true) continue;
    loaded = true;
    total += toolTokens(tool);
  }
  return loaded ? total + TOOLS_OVERHEAD : total;
}

/**
 * Each tool definition's estimate, shared by every agent: an agent's definitions are the same
 * objects in every session (see the toolbox), and a new agent per request would otherwise
 * serialise every tool schema again.
 */
const toolDefinitionTokens = new WeakMap<ToolDefinition, number>();

/** {@link estimateToolDefinitionTokens}, computed once per definition object. @internal */
export function cachedToolDefinitionTokens(tool: ToolDefinition): number {
  let tokens = toolDefinitionTokens.get(tool);
  if (tokens === undefined) toolDefinitionTokens.set(tool, (tokens = estimateToolDefinitionTokens(tool)));
  return tokens;
}

/** A rough token count of one tool definition in a request's tool list. @internal */
export function estimateToolDefinitionTokens(tool: ToolDefinition): number {
  return BLOCK_OVERHEAD + estimateTextTokensUnchecked(safeJson(tool));
}
