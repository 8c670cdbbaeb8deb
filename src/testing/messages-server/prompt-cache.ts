import { findModelEntry } from '../../model/find-model-entry.js';
import { MINIMUM_CACHEABLE_TOKENS } from '../../model/anthropic/minimum-cacheable-tokens.js';
import type { CacheTtl, RequestSegments } from './request-segments.js';

/**
 * The smallest prefix the API caches, in tokens, by model id prefix (a shorter prefix is simply
 * not cached: no error, both cache counts zero).
 */
export const DEFAULT_MINIMUM_CACHEABLE_TOKENS: Readonly<Record<string, number>> = MINIMUM_CACHEABLE_TOKENS;

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

/** A request's prefixes looked up, its writes not yet made (see {@link PromptCache.lookup}). */
export interface PromptCacheLookup {
  /** The request's cache figures. */
  usage: PromptCacheUsage;
  /** Writes the request's breakpoints and refreshes the entry it read: its response has begun. */
  commit(): void;
}

/** The prompt cache of one loopback server. */
export interface PromptCache {
  /** Looks the request's prefixes up, writes its breakpoints, and returns its cache figures. */
  apply(model: string, request: RequestSegments): PromptCacheUsage;
  /**
   * Looks the request's prefixes up when it arrives; its entries are written by `commit`, when its
   * response begins, and only then readable by other requests (as on the API).
   */
  lookup(model: string, request: RequestSegments): PromptCacheLookup;
  /** Live entries now. */
  readonly size: number;
}

const lifetimes: Record<CacheTtl, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };

/**
 * Creates a prompt cache that behaves as the Messages API documents: a `cache_control` marks the
 * end of a cacheable prefix (tools, then system, then messages); a request reads the longest
 * cached prefix found at a breakpoint or up to `lookbackBlocks` blocks before one, and writes
 * every later breakpoint whose prefix reaches the model's minimum; an entry lives 5 minutes (or
 * 1 hour with `ttl: '1h'`) from its last use. A request's entries are readable once its response
 * has begun, as on the API: the server looks a request up when it arrives and writes its entries
 * when it starts to answer, so requests that arrive while a response function holds an answer
 * (parallel subagents whose first request has not been answered) each write their shared prefix.
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
    apply(model, request) {
      const found = lookup(model, request);
      found.commit();
      return found.usage;
    },
    lookup,
  };

  /** Looks a request up now; its writes wait for `commit`. */
  function lookup(model: string, { segments, totalTokens }: RequestSegments): PromptCacheLookup {
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
    const read = hit >= 0 ? segments[hit]!.prefixTokens : 0;
    const minimum = minimumFor(model);
    const created = { '5m': 0, '1h': 0 };
    const writes: Array<{ key: string; ttl: CacheTtl }> = [];
    let written = read;
    for (const point of breakpoints) {
      const segment = segments[point]!;
      if (point <= hit || segment.prefixTokens < minimum) continue;
      const ttl = segment.breakpoint!;
      created[ttl] += segment.prefixTokens - written;
      written = segment.prefixTokens;
      writes.push({ key: segment.prefixKey, ttl });
    }
    const hitKey = hit >= 0 ? segments[hit]!.prefixKey : undefined;
    const commit = () => {
      const at = now();
      // A hit refreshes the entry's lifetime (unless it expired since the lookup).
      const entry = hitKey === undefined ? undefined : live(hitKey, at);
      if (entry) entry.expiresAt = at + lifetimes[entry.ttl];
      for (const { key, ttl } of writes) entries.set(key, { expiresAt: at + lifetimes[ttl], ttl });
    };
    const usage = {
      inputTokens: totalTokens - written,
      cacheReadInputTokens: read,
      cacheCreationInputTokens: written - read,
      cacheCreation: { ephemeral_5m_input_tokens: created['5m'], ephemeral_1h_input_tokens: created['1h'] },
    };
    return { usage, commit };
  }
}
