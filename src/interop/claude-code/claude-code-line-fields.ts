/** Field readers for Claude Code session lines, tolerant of anything a line may hold. */
import type { ContentBlock } from '../../model/messages.js';
import type { Usage } from '../../model/usage.js';

/** A parsed JSON object. */
export type JsonRecord = Record<string, unknown>;

/** True for a JSON object (not an array, not null). */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** Claude Code's `message.usage` (API snake_case, extra keys ignored) as our {@link Usage}. */
export function toUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  return {
    inputTokens: count(value.input_tokens),
    outputTokens: count(value.output_tokens),
    cacheReadInputTokens: count(value.cache_read_input_tokens),
    cacheCreationInputTokens: count(value.cache_creation_input_tokens),
  };
}

/** Message content as blocks: a string becomes one text block; entries without a `type` are dropped. */
export function toBlocks(content: unknown): ContentBlock[] | undefined {
  if (typeof content === 'string') return content.length ? [{ type: 'text', text: content }] : [];
  if (!Array.isArray(content)) return undefined;
  return content.filter((block): block is ContentBlock => isRecord(block) && typeof block.type === 'string');
}
