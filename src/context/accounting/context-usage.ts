import type { Usage } from '../../model/usage.js';

/**
 * Where a {@link ContextUsage} figure comes from, most exact first: `usage` (what the API reported
 * for the last call), `count` (the token counting endpoint), `calibrated` (an estimate corrected by
 * the last reported figure), `estimate` (the heuristic alone).
 */
export type ContextUsageSource = 'usage' | 'count' | 'calibrated' | 'estimate';

/** How full the context is: the shape a host draws a meter from. */
export interface ContextUsage {
  /** Tokens the context holds, or the next request will take. */
  tokens: number;
  /** The model's context window, in tokens. */
  window: number;
  /** `tokens / window`; above 1 the API refuses the request ("prompt is too long"). */
  fraction: number;
  /** Where `tokens` comes from. */
  source: ContextUsageSource;
}

/**
 * Builds a {@link ContextUsage}.
 * @param tokens - tokens in the context.
 * @param window - the context window; must be positive.
 * @param source - where `tokens` comes from.
 */
export function contextUsage(tokens: number, window: number, source: ContextUsageSource): ContextUsage {
  const rounded = Math.max(0, Math.round(tokens));
  return { tokens: rounded, window, fraction: window > 0 ? rounded / window : 0, source };
}

/**
 * The prompt size of one call as the API reported it: uncached input plus cache reads and writes
 * (`input_tokens` alone leaves out everything served from or written to the cache).
 * @param usage - the usage of one model call.
 */
export function promptTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
}
