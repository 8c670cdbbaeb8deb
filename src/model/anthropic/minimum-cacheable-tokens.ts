/**
 * The smallest prefix the API caches, in tokens, by model id prefix (a shorter prefix is simply
 * not cached: no error, both cache counts zero).
 */
export const MINIMUM_CACHEABLE_TOKENS: Readonly<Record<string, number>> = {
  'claude-': 1024,
  'claude-opus-4-6': 4096,
  'claude-opus-4-5': 4096,
  'claude-haiku-4-5': 4096,
  'claude-3-5-haiku': 2048,
  'claude-3-haiku': 2048,
};
