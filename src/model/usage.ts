/** Token counts of one model call or summed over a run. */
export interface Usage {
  /** Uncached input tokens. */
  inputTokens: number;
  /** Output tokens. */
  outputTokens: number;
  /** Input tokens read from the prompt cache. */
  cacheReadInputTokens: number;
  /** Input tokens written to the prompt cache. */
  cacheCreationInputTokens: number;
}

/** A usage with every count at zero. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
}

/** Adds `delta` into `total` in place and returns `total`. */
export function addUsage(total: Usage, delta: Usage): Usage {
  total.inputTokens += delta.inputTokens;
  total.outputTokens += delta.outputTokens;
  total.cacheReadInputTokens += delta.cacheReadInputTokens;
  total.cacheCreationInputTokens += delta.cacheCreationInputTokens;
  return total;
}

const USAGE_FIELDS = ['inputTokens', 'outputTokens', 'cacheReadInputTokens', 'cacheCreationInputTokens'] as const;

/** What is wrong with a custom model's token usage, if anything (our adapters always report the right shape). */
export function usageProblem(usage: unknown): string | undefined {
  if (typeof usage !== 'object' || usage === null) return 'usage is missing (token counts: inputTokens, outputTokens, cacheReadInputTokens, cacheCreationInputTokens)';
  for (const field of USAGE_FIELDS) {
    const count = (usage as Partial<Record<(typeof USAGE_FIELDS)[number], unknown>>)[field];
    if (typeof count !== 'number' || !Number.isFinite(count) || count < 0) return `usage.${field} is not a count of tokens (a finite number, 0 or more)`;
  }
  return undefined;
}
