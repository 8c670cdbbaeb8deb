import type { Usage } from '../../model/usage.js';
import type { MessagesRequestBody, StaticMessagesResponse } from './messages-server-types.js';
import type { RecordedResponse } from './send-messages-response.js';
import { createPromptCache, type PromptCache, type PromptCacheLookup, type PromptCachingOptions } from './prompt-cache.js';
import { requestSegments, type RequestSegments } from './request-segments.js';

/** Options of {@link createRequestAccounting}: the server's prompt caching and context window. */
export interface RequestAccountingOptions {
  promptCaching?: boolean | PromptCachingOptions | undefined;
  contextWindow?: number | ((model: string) => number | undefined) | undefined;
}

/** Token counting, the context window check and prompt caching of one loopback server. */
export interface RequestAccounting {
  /** The server's token count of a request. */
  countTokens(body: MessagesRequestBody): number;
  /** The real API's "prompt is too long" message when the request exceeds the window, else undefined. */
  tooLongProblem(body: MessagesRequestBody): string | undefined;
  /**
   * Looks a request up in the prompt cache as it arrives (the API reads the cache before the
   * response begins); undefined without prompt caching.
   */
  lookup(body: MessagesRequestBody): PromptCacheLookup | undefined;
  /**
   * Writes a request that reaches the model (any answer but an HTTP fault) to the prompt cache as
   * its response begins, from its lookup at arrival; a scripted turn then reports the cache figures
   * (its own `usage` fields still win).
   * @returns the answer to send.
   */
  withCacheUsage<T extends StaticMessagesResponse | RecordedResponse>(item: T, found: PromptCacheLookup | undefined): T;
}

/**
 * Creates the accounting of one server. A request body is cut into segments once (bodies are
 * parsed per request, so the memo is per body object).
 */
export function createRequestAccounting(options: RequestAccountingOptions): RequestAccounting {
  const cache: PromptCache | undefined = options.promptCaching
    ? createPromptCache(options.promptCaching === true ? {} : options.promptCaching)
    : undefined;
  const memo = new WeakMap<MessagesRequestBody, RequestSegments>();
  const segmentsOf = (body: MessagesRequestBody): RequestSegments => {
    let segments = memo.get(body);
    if (!segments) memo.set(body, (segments = requestSegments(body)));
    return segments;
  };
  const windowOf = (model: string): number | undefined =>
    typeof options.contextWindow === 'function' ? options.contextWindow(model) : options.contextWindow;

  return {
    countTokens: (body) => segmentsOf(body).totalTokens,
    tooLongProblem(body) {
      const window = windowOf(String(body.model));
      if (window === undefined) return undefined;
      const tokens = segmentsOf(body).totalTokens;
      return tokens > window ? `prompt is too long: ${tokens} tokens > ${window} maximum` : undefined;
    },
    lookup: (body) => cache?.lookup(String(body.model), segmentsOf(body)),
    withCacheUsage(item, found) {
      const httpFault = 'fault' in item && item.fault !== 'stream-error' && item.fault !== 'drop-connection';
      if (!found || httpFault) return item;
      found.commit();
      const { inputTokens, cacheReadInputTokens, cacheCreationInputTokens } = found.usage;
      if ('fault' in item || 'recording' in item || 'recordedResponse' in item) return item;
      const usage: Partial<Usage> = { inputTokens, cacheReadInputTokens, cacheCreationInputTokens, ...item.usage };
      return { ...item, usage };
    },
  };
}
