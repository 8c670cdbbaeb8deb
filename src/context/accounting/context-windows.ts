import { findModelEntry } from '../../model/find-model-entry.js';
import { argumentError, isObjectValue } from '../../errors/argument-error.js';

/**
 * Context windows in tokens by model id prefix; the longest matching prefix wins, so `claude-`
 * is the fallback for Claude models not listed. These are the standard windows: a model run with
 * a larger window (the 1M-token beta of some Sonnet and Opus models) needs its entry overridden,
 * e.g. `{ 'claude-sonnet-4-6': 1_000_000 }`. Frozen: extend it with `windows`, not by changing it.
 */
export const DEFAULT_CONTEXT_WINDOWS: Readonly<Record<string, number>> = Object.freeze({
  'claude-': 200_000,
  'claude-opus-4': 200_000,
  'claude-sonnet-4': 200_000,
  'claude-haiku-4-5': 200_000,
  'claude-3-7-sonnet': 200_000,
  'claude-3-5-sonnet': 200_000,
  'claude-3-5-haiku': 200_000,
  'claude-3-opus': 200_000,
  'claude-3-haiku': 200_000,
});

/** Options of {@link contextWindowFor}. */
export interface ContextWindowForOptions {
  /**
   * Entries that extend or override {@link DEFAULT_CONTEXT_WINDOWS}, by model id prefix.
   * @default {}
   */
  windows?: Readonly<Record<string, number>>;
}

/**
 * The context window of a model, in tokens, from {@link DEFAULT_CONTEXT_WINDOWS} extended by the
 * host's own entries.
 * @param modelId - e.g. `claude-sonnet-4-6`.
 * @returns the window, or undefined for a model no entry matches (a non-Claude model).
 * @example contextWindowFor('claude-sonnet-4-6', { windows: { 'claude-sonnet-4-6': 1_000_000 } }); // 1_000_000
 */
export function contextWindowFor(modelId: string, options: ContextWindowForOptions = {}): number | undefined {
  if (typeof modelId !== 'string') throw argumentError('contextWindowFor', 'modelId', "a model id (a string such as 'claude-sonnet-4-6')", modelId);
  if (!isObjectValue(options)) throw argumentError('contextWindowFor', 'options', 'an options object ({ windows }) or nothing', options);
  return findModelEntry(modelId, options.windows ? { ...DEFAULT_CONTEXT_WINDOWS, ...options.windows } : DEFAULT_CONTEXT_WINDOWS);
}
