import type Anthropic from '@anthropic-ai/sdk';
import type { ToolSearchSupport } from '../model.js';

/** Extended-thinking configuration, passed to the API unchanged (`thinking` request field). */
export type AnthropicThinkingConfig = Anthropic.Messages.ThinkingConfigParam;

/**
 * Server-side context editing (`context_management`), passed to the API unchanged, e.g.
 * `{ edits: [{ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 100_000 }, keep: { type: 'tool_uses', value: 3 } }] }`.
 * The API clears old tool results before the prompt reaches the model; the history kept here is
 * not changed.
 */
export type AnthropicContextManagement = Anthropic.Beta.Messages.BetaContextManagementConfig;

/**
 * How much effort the model puts into an answer (`output_config.effort`): `low`, `medium`, `high`,
 * `xhigh` or `max`, as the SDK lists them.
 */
export type AnthropicEffort = NonNullable<Anthropic.Messages.OutputConfig['effort']>;

/** Prompt caching with a chosen lifetime for the adapter's breakpoints (see `AnthropicModelOptions.promptCaching`). */
export interface AnthropicPromptCaching {
  /**
   * How long the cache entries the adapter's breakpoints write live without a hit: `'5m'`, or
   * `'1h'` for sessions whose requests come further apart than five minutes (a person reading a
   * plan card or an approval before answering). A one-hour write costs twice the input price
   * against 1.25 times for five minutes; a read costs a tenth either way, and each hit starts the
   * lifetime again.
   * @default '5m' (or '1h' when the request already carries a one-hour breakpoint of the caller's)
   */
  ttl?: '5m' | '1h';
  /**
   * How long, at most, a request waits for a concurrent one with the same tools and system prompt
   * whose response has not begun, so that it reads that prefix from the cache instead of writing
   * it too. The API makes a cache entry readable only once the response that wrote it has begun:
   * requests sent together (parallel subagents of one type, sessions of one agent started at once)
   * would each pay the write, 1.25× the prefix's input price (2× for
   * one-hour entries) where a read costs 0.1×. A request waits only while the prefix is not known
   * to be cached (no response with it began within the entries' lifetime) and is at least the
   * model's minimum cacheable size (estimated), and only for a first request whose own messages
   * are short (about 4,096 tokens at most: one with a long history begins late, so nothing waits
   * for it); the wait lasts until that request's response begins (about a time to first token),
   * or this long, after which the waiting request goes and takes the lead. Requests wait for each other across every
   * `anthropicModel` made with the same `client` (or the same `apiKey` and `baseURL`), model,
   * `ttl`, wait, `extraBody` and `headers`, so a host that makes a model per request shares too; within one process (each
   * server of a fleet sends its own first request). `0` sends every request at once.
   * @default 10000
   */
  sharedPrefixWaitMs?: number;
}

/** The beta the API needs for `context_management`; sent automatically when it is set. */
export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';

/** Options of {@link anthropicModel}. */
export interface AnthropicModelOptions {
  /** Model id sent to the API, e.g. `claude-sonnet-4-6`. */
  model: string;
  /**
   * An existing SDK client to send requests with (its own key, base URL, retries, fetch).
   * Cannot be combined with `apiKey` or `baseURL`.
   * @default a new `Anthropic` client built from `apiKey`, `baseURL` and `maxRetries`
   */
  client?: Anthropic;
  /**
   * API key for the client this adapter creates.
   * @default the SDK's default, the `ANTHROPIC_API_KEY` environment variable
   */
  apiKey?: string;
  /**
   * Base URL of the Messages API, e.g. the loopback server of `agent-harness/testing`.
   * @default the SDK's default, `https://api.anthropic.com` (or `ANTHROPIC_BASE_URL`)
   */
  baseURL?: string;
  /**
   * Upper bound of output tokens per turn (`max_tokens`). When a turn hits it the response's
   * `stopReason` is `max_tokens`.
   * @default 8192
   */
  maxTokens?: number;
  /**
   * Extended thinking, passed through, e.g. `{ type: 'enabled', budget_tokens: 4096 }` or
   * `{ type: 'adaptive' }`. With `type: 'enabled'`, `budget_tokens` must be an integer of at least
   * 1024 and below `maxTokens`.
   * @default undefined (the API's default: no thinking)
   */
  thinking?: AnthropicThinkingConfig;
  /**
   * Marks prompt-cache breakpoints (`cache_control: { type: 'ephemeral' }`) on the last system
   * block, the last tool definition, the last content block of the last message, and the last
   * content block of the message before the latest assistant message (where the previous request
   * ended: the API looks for a cached prefix only 20 blocks back from a breakpoint, so a turn of
   * many parallel tool calls would otherwise put the cached history out of reach). With the
   * caller's own breakpoints, ours stay within the API's four, the last one given up first.
   * `{ ttl: '1h' }` makes their entries live an hour instead of five minutes (see
   * {@link AnthropicPromptCaching}); `false` adds none. Requests sent together with the same
   * tools and system prompt wait for the first one's response to begin before they are sent, so
   * they read that prefix rather than each writing it (`sharedPrefixWaitMs`).
   * @default true (five-minute entries)
   */
  promptCaching?: boolean | AnthropicPromptCaching;
  /**
   * How often the SDK itself retries a request that failed with 408, 409, 429, 5xx or a connection
   * error, honouring `retry-after`. Errors in the middle of a stream are not retried here.
   * @default 2 (with `client`: the client's own setting)
   */
  maxRetries?: number;
  /**
   * Sampling temperature, from 0 to 1; only 1 with `thinking`.
   * @default undefined (the API's default)
   */
  temperature?: number;
  /**
   * Custom stop sequences, each with a non-whitespace character (the API refuses blank ones); a
   * turn that ends on one reports `stopReason: 'stop_sequence'`.
   * @default undefined
   */
  stopSequences?: string[];
  /**
   * Extra fields merged into every request body (e.g. `metadata`, `tool_choice`, beta fields).
   * They are applied before the adapter's own fields, which therefore cannot be overridden here.
   * @default undefined
   */
  extraBody?: Record<string, unknown>;
  /**
   * Extra HTTP headers sent with every request (e.g. `anthropic-beta`).
   * @default undefined
   */
  headers?: Record<string, string>;
  /**
   * Server-side context editing: the API clears old tool uses (and thinking) past a threshold
   * before the prompt reaches the model. Sent as `context_management`, with the
   * `context-management-2025-06-27` beta added to `anthropic-beta`. Clearing changes the prompt
   * prefix, so it costs a cache write each time it fires: set `clear_at_least` to make that rare.
   * @default undefined (no server-side editing)
   */
  contextManagement?: AnthropicContextManagement;
  /**
   * Use the Messages API's structured outputs (`output_config.format`) when a run asks for a typed
   * `output`. Turn it off for a model that does not support them: the run then shows the JSON
   * Schema in the prompt and validates the answer.
   * @default true
   */
  structuredOutput?: boolean;
  /**
   * How much effort the model puts into each answer, sent as `output_config.effort`: a lower
   * effort answers with fewer tokens (thinking included), so it costs less and answers sooner; a
   * higher one is more thorough. Only models that support it take it: the API refuses the request
   * for others. Merged with an `output_config` given in `extraBody` and with the structured
   * output's `format`, so none of them replaces another.
   * @default undefined (the API's default for the model)
   */
  effort?: AnthropicEffort;
  /**
   * How this model reaches deferred tools (`deferLoading`): `'server'` sends them with
   * `defer_loading: true` beside the tool search server tool, `'tool-reference'` beside the
   * client-side `ToolSearch` (which answers with `tool_reference` blocks), `'none'` leaves them out
   * of requests (the client-side `ToolSearch` answers with their definitions).
   * @default 'server' for Opus and Sonnet 4.5 and later models, else 'none'
   */
  toolSearch?: ToolSearchSupport;
  /**
   * Count every request with the Messages API's token counting endpoint (through the SDK) before
   * sending it, so the agent's `contextUsage` is exact before the call rather than estimated. One
   * extra request per turn (the endpoint is free of charge but rate-limited).
   * @default false (estimated, calibrated against the usage each response reports)
   */
  countTokens?: boolean;
}
