import type { ContextUsage } from '../accounting/context-usage.js';
import { argumentError, isObjectValue } from '../../errors/argument-error.js';

/** Options of {@link compactionThreshold} and {@link shouldCompact}. */
export interface CompactionThresholdOptions {
  /**
   * Tokens kept free for the next answer (its `max_tokens`) and the summary call itself. At most
   * half the window counts: a larger reserve (one set for a 1M-token window, used by a subagent on
   * a 200k model) would put the threshold at zero and compact before every request.
   * @default 20_000
   */
  outputReserve?: number;
  /**
   * Fraction of the window at which to compact, when that comes before the reserve.
   * @default 0.9
   */
  threshold?: number;
}

/**
 * The context size at which to compact automatically: the lower of `threshold × window` and
 * `window − outputReserve`, the reserve counting for at most half the window (so the threshold
 * is never below half the window on account of the reserve), never below zero.
 * @param window - the model's context window in tokens.
 * @param options - see {@link CompactionThresholdOptions}.
 * @example compactionThreshold(200_000); // 180_000
 * @example compactionThreshold(200_000, { outputReserve: 250_000 }); // 100_000
 */
export function compactionThreshold(window: number, options: CompactionThresholdOptions = {}): number {
  if (typeof window !== 'number') throw argumentError('compactionThreshold', 'window', "the model's context window in tokens (a number)", window);
  if (!isObjectValue(options)) throw argumentError('compactionThreshold', 'options', 'an options object ({ threshold, outputReserve }) or nothing', options);
  const reserve = Math.min(options.outputReserve ?? 20_000, Math.floor(window / 2));
  const fraction = options.threshold ?? 0.9;
  return Math.max(0, Math.min(Math.floor(window * fraction), window - reserve));
}

/**
 * Whether a context of this size should be compacted before the next request.
 * @param usage - the measured context (from a `ContextTracker`).
 * @param options - see {@link CompactionThresholdOptions}.
 */
export function shouldCompact(usage: ContextUsage, options: CompactionThresholdOptions = {}): boolean {
  if (!isObjectValue(usage) || typeof usage.tokens !== 'number' || typeof usage.window !== 'number') throw argumentError('shouldCompact', 'usage', 'a context usage ({ tokens, window })', usage);
  if (!isObjectValue(options)) throw argumentError('shouldCompact', 'options', 'an options object ({ threshold, outputReserve }) or nothing', options);
  return usage.tokens >= compactionThreshold(usage.window, options);
}
