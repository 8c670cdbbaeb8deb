import type { Usage } from '../../model/usage.js';

import type { ContextUsage } from '../../types/context-usage.js';
import { argumentError, isObjectValue } from '../../errors/argument-error.js';

export type { ContextUsage, ContextUsageSource } from '../../types/context-usage.js';

/**
 * Builds a {@link ContextUsage}.
 * @param tokens - tokens in the context.
 * @param window - the context window; must be positive.
 * @param source - where `tokens` comes from.
 */
export function contextUsage(tokens: number, window: number, source: ContextUsage['source']): ContextUsage {
  const rounded = Math.max(0, Math.round(tokens));
  return { tokens: rounded, window, fraction: window > 0 ? rounded / window : 0, source };
}

/**
 * The prompt size of one call as the API reported it: uncached input plus cache reads and writes
 * (`input_tokens` alone leaves out everything served from or written to the cache).
 * @param usage - the usage of one model call.
 */
export function promptTokens(usage: Usage): number {
  if (!isObjectValue(usage)) throw argumentError('promptTokens', 'usage', 'a usage ({ inputTokens, cacheReadInputTokens, cacheCreationInputTokens, outputTokens })', usage);
  return promptTokensUnchecked(usage);
}

/** {@link promptTokens} without its argument checks, for the library's own calls (their arguments are known good). @internal */
export function promptTokensUnchecked(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
}
