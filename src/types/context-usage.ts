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

/** What started a compaction: the threshold (`auto`), a refused prompt (`reactive`) or the host (`manual`). */
export type CompactionTrigger = 'auto' | 'reactive' | 'manual';
