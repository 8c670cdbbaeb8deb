/** Field readers for Claude Code session lines, tolerant of anything a line may hold. */
import type { Usage } from '../../model/usage.js';

/** A parsed JSON object. */
export type JsonRecord = Record<string, unknown>;

/** True for a JSON object (not an array, not null). */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value when it is a non-empty string. */
export function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
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

/** The last path segment, for `/` and `\` separators alike. */
export function lastSegment(path: string): string {
  const index = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return index === -1 ? path : path.slice(index + 1);
}
