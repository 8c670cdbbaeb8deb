import { findModelEntry } from '../../model/find-model-entry.js';
import type { CacheTtl, RequestSegments } from './request-segments.js';

/**
 * The smallest prefix the API caches, in tokens, by model id prefix (a shorter prefix is simply
 * not cached: no error, both cache counts zero).
 */
export const DEFAULT_MINIMUM_CACHEABLE_TOKENS: Readonly<Record<string, number>> = {
  'claude-': 1024,
  'claude-opus-4-6': 4096,
  'claude-opus-4-5': 4096,
  'claude-haiku-4-5': 4096,
  'claude-3-5-haiku': 2048,
  'claude-3-haiku': 2048,
};

/** How the loopback server models prompt caching. */
export interface PromptCachingOptions {
  /**
   * The clock, in milliseconds; entries expire by it. Tests advance it by hand.
   * @default Date.now
   */
  now?: () => number;
  /**
   * The smallest cacheable prefix in tokens: one number for every model, or entries by model id
   * prefix that extend {@link DEFAULT_MINIMUM_CACHEABLE_TOKENS}.
   * @default DEFAULT_MINIMUM_CACHEABLE_TOKENS
   */
  minimumCacheableTokens?: number | Readonly<Record<string, number>>;
  /**
   * How many blocks before each breakpoint are checked for a cached prefix.
   * @default 20
   */
  lookbackBlocks?: number;
}

/** Cache figures of one request, in the API's usage terms. */
export interface PromptCacheUsage {
  /** Tokens after the cached and written prefix. */
  inputTokens: number;
  /** Tokens of the longest cached prefix found. */
  cacheReadInputTokens: number;
  /** Tokens written to the cache (from the cached prefix up to the last cacheable breakpoint). */
  cacheCreationInputTokens: number;
  /** The written tokens by lifetime, as the API's `usage.cache_creation` splits them. */
  cacheCreation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

/** The prompt cache of one loopback server. */
export interface PromptCache {
  /** Looks the request's prefixes up, writes its breakpoints, and returns its cache figures. */
  apply(model: string, request: RequestSegments): PromptCacheUsage;
  /** Live entries now. */
  readonly size: number;
}

const lifetimes: Record<CacheTtl, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };

/**
 * Creates a prompt cache that behaves as the Messages API documents: a `cache_control` marks the
 * end of a cacheable prefix (tools, then system, then messages); a request reads the longest
 * cached prefix found at a breakpoint or up to `lookbackBlocks` blocks before one, and writes
 * every later breakpoint whose prefix reaches the model's minimum; an entry lives 5 minutes (or
 * 1 hour with `ttl: '1h'`) from its last use. One difference: a request's entries are readable
 * by the next request at once, where the API makes them readable only once the response that
 * wrote them has begun. Requests sent together (parallel subagents of one type) each write their
 * shared prefix on the API; here the later ones read it.
 * @param options - clock, minimum and lookback; see {@link PromptCachingOptions}.
 */
export function createPromptCache(options: PromptCachingOptions = {}): PromptCache {
  const now = options.now ?? Date.now;
  const lookback = options.lookbackBlocks ?? 20;
  const entries = new Map<string, { expiresAt: number; ttl: CacheTtl }>();
  const minimumFor = (model: string): number =>
    typeof options.minimumCacheableTokens === 'number'
      ? options.minimumCacheableTokens
      : findModelEntry(model, { ...DEFAULT_MINIMUM_CACHEABLE_TOKENS, ...options.minimumCacheableTokens }) ?? 1024;

  const live = (key: string, at: number) => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= at) entries.delete(key);
    return entry && entry.expiresAt > at ? entry : undefined;
  };

  return {
    get size() {
      const at = now();
      for (const key of [...entries.keys()]) live(key, at);
      return entries.size;
    },
    apply(model, { segments, totalTokens }) {
      const at = now();
      const breakpoints = segments.flatMap((segment, index) => (segment.breakpoint ? [index] : []));
      let hit = -1;
      for (const point of breakpoints) {
        for (let index = point; index > hit && index >= Math.max(0, point - lookback + 1); index--) {
          if (live(segments[index]!.prefixKey, at)) {
            hit = index;
            break;
          }
        }
      }
      if (hit >= 0) {
        // A hit refreshes the entry's lifetime.
        const entry = entries.get(segments[hit]!.prefixKey)!;
        entry.expiresAt = at + lifetimes[entry.ttl];
      }
      const read = hit >= 0 ? segments[hit]!.prefixTokens : 0;
      const minimum = minimumFor(model);
      const created = { '5m': 0, '1h': 0 };
      let written = read;
      for (const point of breakpoints) {
        const segment = segments[point]!;
        if (point <= hit || segment.prefixTokens < minimum) continue;
        const ttl = segment.breakpoint!;
        created[ttl] += segment.prefixTokens - written;
        written = segment.prefixTokens;
        // No live entry can sit here: the lookback from this breakpoint would have hit it.
        entries.set(segment.prefixKey, { expiresAt: at + lifetimes[ttl], ttl });
      }
      return {
        inputTokens: totalTokens - written,
        cacheReadInputTokens: read,
        cacheCreationInputTokens: written - read,
        cacheCreation: { ephemeral_5m_input_tokens: created['5m'], ephemeral_1h_input_tokens: created['1h'] },
      };
    },
  };
}
