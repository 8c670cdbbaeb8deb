import type { RawBlock } from './content-block-problem.js';

/** The API takes at most this many blocks with `cache_control` per request. */
const maxCacheControlBlocks = 4;

/** The parts of a request body that carry `cache_control`. */
export interface CacheControlCarriers {
  /** The request's `system`. */
  system?: unknown;
  /** The request's `tools`. */
  tools?: unknown;
  /** The request's `messages`. */
  messages?: unknown;
}

/**
 * `cache_control` rules across the whole request: none on an empty system text block, and at most
 * four blocks carrying one among system, tools and message blocks (blocks nested in a
 * `tool_result` count too). Messages' own blocks are checked by `validateMessagesRequest`.
 */
export function cacheControlProblem(body: CacheControlCarriers): string | undefined {
  const system = Array.isArray(body.system) ? (body.system as RawBlock[]) : [];
  const emptyMarked = system.findIndex((block) => block.type === 'text' && block.text === '' && block.cache_control);
  if (emptyMarked >= 0) return `system.${emptyMarked}.text: cache_control cannot be set for empty text blocks`;
  const found = countMarked([...system, ...(Array.isArray(body.tools) ? (body.tools as RawBlock[]) : []), ...messageBlocks(body.messages)]);
  if (found <= maxCacheControlBlocks) return undefined;
  return `A maximum of ${maxCacheControlBlocks} blocks with cache_control may be provided. Found ${found}.`;
}

function messageBlocks(messages: unknown): RawBlock[] {
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message: { content?: unknown } | null) =>
    message && Array.isArray(message.content) ? (message.content as RawBlock[]) : [],
  );
}

function countMarked(blocks: RawBlock[]): number {
  let count = 0;
  for (const block of blocks) {
    if (typeof block !== 'object' || block === null) continue;
    if (block.cache_control) count++;
    if (Array.isArray(block.content)) count += countMarked(block.content as RawBlock[]);
  }
  return count;
}
