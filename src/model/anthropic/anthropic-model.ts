import type Anthropic from '@anthropic-ai/sdk';
import { ConfigurationError } from '../../errors/configuration-error.js';
import { loadOnce } from '../../lazy/load-once.js';
import { MAX_TIMER_MS } from '../../types/max-timer-ms.js';
import {
  accepts,
  anything,
  arrayOf,
  checkOptions,
  describeOptionValue,
  isBoolean,
  isNonEmptyString,
  isObject,
  isNonNegativeInteger,
  isPlainObject,
  isPositiveInteger,
  isString,
  oneOf,
  recordOf,
  type OptionsSpec,
} from '../../options/index.js';
import type { Model, ModelRequest, ModelStreamEvent, TokenCount } from '../model.js';
import { CONTEXT_MANAGEMENT_BETA, type AnthropicModelOptions } from './anthropic-model-options.js';
import type { AnthropicStreamEvent } from './anthropic-stream-event.js';
import type { SharedPrefixGate, SharedPrefixPass } from './shared-prefix-gate.js';
import type { OpenedAnthropicStream } from './stream-anthropic-turn.js';
import type { AnthropicRequestSettings } from './to-anthropic-request.js';
import { anthropicToolSearchSupport } from './tool-search-support.js';

type AnthropicTurnCode = typeof import('./anthropic-turn-code.js');

/**
 * Loads the request, stream and error code on the first call of any anthropicModel (the call is
 * asynchronous anyway); every call after the first reads `loadTurnCode.loaded` without a wait. A
 * load that failed is forgotten: the next call tries again.
 */
const loadTurnCode = loadOnce((): Promise<AnthropicTurnCode> => import('./anthropic-turn-code.js'));

const defaultMaxTokens = 8192;
/** How long a request waits, at most, for a concurrent one's response to begin (`promptCaching.sharedPrefixWaitMs`). */
const defaultSharedPrefixWaitMs = 10_000;
const defaultMaxRetries = 2;

/**
 * A {@link Model} backed by the Anthropic Messages API through the official `@anthropic-ai/sdk`.
 * Every turn is streamed; prompt caching is on by default.
 *
 * @param options - model id and client settings; see {@link AnthropicModelOptions}.
 * @throws ConfigurationError when `model` is missing, `maxTokens`/`maxRetries` are not valid
 *   numbers, or `client` is combined with `apiKey`/`baseURL`.
 * @example
 * const model = anthropicModel({ model: 'claude-sonnet-4-6', thinking: { type: 'enabled', budget_tokens: 4096 } });
 */
export function anthropicModel(options: AnthropicModelOptions): Model {
  validateOptions(options);
  // The SDK is loaded on the first call, not on import: a host that never calls the model (or
  // brings its own Model) does not pay its load time.
  const given = options.client ? Promise.resolve(options.client) : undefined;
  const loadClient = loadOnce(() =>
    import('@anthropic-ai/sdk').then(
      ({ Anthropic: AnthropicClient }) =>
        new AnthropicClient({
          ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
          ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
          maxRetries: options.maxRetries ?? defaultMaxRetries,
        }),
      (cause: unknown) => {
        throw new ConfigurationError(
          `anthropicModel() needs the @anthropic-ai/sdk package, which could not be loaded (${cause instanceof Error ? cause.message : String(cause)}). Install it next to agent-harness: npm install @anthropic-ai/sdk`,
          { cause },
        );
      },
    ),
  );
  const getClient = (): Promise<Anthropic> => given ?? loadClient();
  const settings: AnthropicRequestSettings = {
    model: options.model,
    maxTokens: options.maxTokens ?? defaultMaxTokens,
    promptCaching: options.promptCaching !== false,
    ...(typeof options.promptCaching === 'object' && options.promptCaching.ttl === '1h' ? { cacheTtl: '1h' as const } : {}),
    thinking: options.thinking,
    temperature: options.temperature,
    stopSequences: options.stopSequences,
    extraBody: options.extraBody,
    contextManagement: options.contextManagement,
    structuredOutput: options.structuredOutput,
    effort: options.effort,
  };
  const prefixWaitMs = !settings.promptCaching
    ? 0
    : (typeof options.promptCaching === 'object' ? options.promptCaching.sharedPrefixWaitMs : undefined) ?? defaultSharedPrefixWaitMs;
  /** Made on the first call (its code loads with the turn's). */
  let gate: SharedPrefixGate | undefined;
  const headers = requestHeaders(options);
  // With a caller's client, its own retry setting stands unless maxRetries was given explicitly.
  const maxRetries = options.client && options.maxRetries !== undefined ? options.maxRetries : undefined;
  /** The SDK's per-request options: only those set (built by assignment, not spreads, on every call). */
  const callOptions = (request: ModelRequest): Anthropic.RequestOptions => {
    const call: Anthropic.RequestOptions = {};
    if (request.signal) call.signal = request.signal;
    if (headers) call.headers = headers;
    if (maxRetries !== undefined) call.maxRetries = maxRetries;
    return call;
  };

  /**
   * Sends the request, once no concurrent request with its prefix is waiting for its response to
   * begin (see `sharedPrefixWaitMs`); the SDK's event stream, the request id, and the pass the
   * stream reports its beginning with.
   */
  const open = async (code: AnthropicTurnCode, request: ModelRequest): Promise<OpenedAnthropicStream> => {
    const body = code.toAnthropicRequest(request, settings);
    // Outside the try: a missing SDK is a ConfigurationError, not a stream that broke off (retried).
    const anthropic = await getClient();
    let began: SharedPrefixPass | undefined;
    if (prefixWaitMs > 0) {
      gate ??= code.sharedPrefixGateFor(
        { client: options.client, apiKey: options.apiKey, baseURL: options.baseURL, extras: [options.extraBody, headers] },
        settings.model,
        settings.cacheTtl ?? '5m',
        prefixWaitMs,
      );
      const admitted = gate.enter(request, request.signal);
      try {
        began = typeof admitted === 'function' ? admitted : await admitted;
      } catch (reason) {
        throw code.mapAnthropicError(reason, { signal: request.signal });
      }
    }
    try {
      const answer = await anthropic.messages
        .create(body as unknown as Anthropic.Messages.MessageCreateParamsStreaming, callOptions(request))
        .withResponse();
      const events = answer.data;
      return { events: events as AsyncIterable<AnthropicStreamEvent>, requestId: answer.request_id ?? undefined, cancel: () => events.controller.abort(), began };
    } catch (error) {
      began?.(false);
      throw code.mapAnthropicError(error, { signal: request.signal });
    }
  };

  /** The first call, before the turn code is loaded: loads it, then streams. */
  async function* streamOnceLoaded(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const code = await loadTurnCode();
    yield* code.streamAnthropicTurn(() => open(code, request), { signal: request.signal });
  }

  // Once the code is loaded, the turn's own generator is the stream: one generator fewer for
  // every event to pass through (a streamed answer has thousands).
  function stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const code = loadTurnCode.loaded;
    return code ? code.streamAnthropicTurn(() => open(code, request), { signal: request.signal }) : streamOnceLoaded(request);
  }

  async function countTokens(request: ModelRequest): Promise<TokenCount> {
    const { toCountTokensRequest, mapAnthropicError } = loadTurnCode.loaded ?? (await loadTurnCode());
    const body = toCountTokensRequest(request, settings);
    try {
      const answer = await (await getClient()).messages.countTokens(body as unknown as Anthropic.Messages.MessageCountTokensParams, callOptions(request));
      return { inputTokens: answer.input_tokens };
    } catch (error) {
      throw mapAnthropicError(error, { signal: request.signal });
    }
  }

  const capabilities = { toolSearch: options.toolSearch ?? anthropicToolSearchSupport(options.model), ...(options.countTokens ? { countTokens: true } : {}) };
  return { specificationVersion: 'v1', provider: 'anthropic', modelId: options.model, structuredOutput: options.structuredOutput ?? true, capabilities, stream, countTokens };
}

/** The caller's headers, with the betas the chosen options need added to `anthropic-beta`. */
function requestHeaders(options: AnthropicModelOptions): Record<string, string> | undefined {
  if (options.contextManagement === undefined) return options.headers;
  const headers = { ...options.headers };
  const name = Object.keys(headers).find((key) => key.toLowerCase() === 'anthropic-beta') ?? 'anthropic-beta';
  const betas = (headers[name] ?? '').split(',').map((beta) => beta.trim()).filter((beta) => beta !== '');
  if (!betas.includes(CONTEXT_MANAGEMENT_BETA)) betas.push(CONTEXT_MANAGEMENT_BETA);
  headers[name] = betas.join(',');
  return headers;
}

const OPTIONS: OptionsSpec<AnthropicModelOptions> = {
  model: anything, // checked below, with an example
  client: isPlainObject,
  apiKey: isString,
  baseURL: isNonEmptyString,
  maxTokens: isPositiveInteger,
  thinking: isPlainObject,
  promptCaching: accepts(
    `true, false or { ttl?: '5m' | '1h', sharedPrefixWaitMs?: a whole number of milliseconds from 0 to ${MAX_TIMER_MS} }`,
    (value) =>
      typeof value === 'boolean' ||
      (isObject(value) &&
        Object.keys(value).every((key) => key === 'ttl' || key === 'sharedPrefixWaitMs') &&
        (value.ttl === undefined || value.ttl === '5m' || value.ttl === '1h') &&
        (value.sharedPrefixWaitMs === undefined || (Number.isInteger(value.sharedPrefixWaitMs) && (value.sharedPrefixWaitMs as number) >= 0 && (value.sharedPrefixWaitMs as number) <= MAX_TIMER_MS))),
  ),
  maxRetries: isNonNegativeInteger,
  temperature: accepts('a number from 0 to 1 (the range the Messages API takes)', (value) => typeof value === 'number' && value >= 0 && value <= 1),
  // The API refuses a stop sequence without a non-whitespace character (it would end every answer at once).
  stopSequences: arrayOf(accepts('a string with a non-whitespace character', (value) => typeof value === 'string' && value.trim() !== ''), 'an array of strings'),
  extraBody: isPlainObject,
  headers: recordOf(isString, 'an object of header names and string values'),
  contextManagement: isPlainObject,
  structuredOutput: isBoolean,
  effort: accepts("one of 'low', 'medium', 'high', 'xhigh' or 'max' (output_config.effort)", (value) => typeof value === 'string' && value.trim() !== ''),
  toolSearch: oneOf(['server', 'tool-reference', 'none']),
  countTokens: isBoolean,
};

/** Names hosts bring from the SDK's request or from other libraries, and what they are here. */
const HINTS: Readonly<Record<string, string>> = {
  max_tokens: 'did you mean `maxTokens`?',
  output_config: "`effort` sets output_config.effort; a typed output sets its format (run(prompt, { output })); anything else goes in extraBody: { output_config: {…} }.",
  system: "the system prompt is createAgent's `system` option (it stays the same for the whole session).",
  tools: "tools are createAgent's `tools` option.",
  betas: "send beta flags as a header: headers: { 'anthropic-beta': 'name-of-beta' }.",
  timeout: 'configure timeouts on your own client: anthropicModel({ model, client: new Anthropic({ timeout }) }).',
};

function validateOptions(options: AnthropicModelOptions): void {
  checkOptions<AnthropicModelOptions>(options, OPTIONS, { owner: 'anthropicModel', usage: "anthropicModel({ model: 'claude-sonnet-4-6' })", hints: HINTS });
  if (typeof options?.model !== 'string' || options.model.trim() === '') {
    throw new ConfigurationError(
      `anthropicModel() needs a model id, got ${JSON.stringify(options?.model)}; pass e.g. { model: 'claude-sonnet-4-6' }.`,
    );
  }
  const thinking = options.thinking as { type?: unknown; budget_tokens?: unknown } | undefined;
  if (thinking) checkThinking(thinking);
  if (thinking && thinking.type !== 'disabled') {
    if (options.temperature !== undefined && options.temperature !== 1) {
      throw new ConfigurationError(
        `anthropicModel(): temperature ${options.temperature} cannot be combined with thinking; the API takes only temperature 1 when thinking is enabled. Leave temperature out, or turn thinking off.`,
      );
    }
    const maxTokens = options.maxTokens ?? defaultMaxTokens;
    if (typeof thinking.budget_tokens === 'number' && thinking.budget_tokens >= maxTokens) {
      throw new ConfigurationError(
        `anthropicModel(): thinking.budget_tokens (${thinking.budget_tokens}) must be below maxTokens (${maxTokens}); raise maxTokens or lower the budget.`,
      );
    }
  }
  if (options.toolSearch !== undefined && !['server', 'tool-reference', 'none'].includes(options.toolSearch)) {
    throw new ConfigurationError(`anthropicModel() option toolSearch must be 'server', 'tool-reference' or 'none', got ${JSON.stringify(options.toolSearch)}.`);
  }
  if (options.client && (options.apiKey !== undefined || options.baseURL !== undefined)) {
    throw new ConfigurationError(
      'anthropicModel() got both `client` and `apiKey`/`baseURL`; configure the key and base URL on the client you pass, or drop `client`.',
    );
  }
}

/** The API's smallest thinking budget. */
const MIN_THINKING_BUDGET = 1024;

/**
 * What the API would refuse at the first call, refused here: a `thinking` without a `type`, and an
 * `enabled` one without an integer `budget_tokens` of at least 1024. Other types (`adaptive`, and
 * those the API adds later) pass as given.
 */
function checkThinking(thinking: { type?: unknown; budget_tokens?: unknown }): void {
  if (typeof thinking.type !== 'string' || thinking.type === '') {
    throw new ConfigurationError(
      `anthropicModel: \`thinking.type\` must be a string such as 'enabled' (with budget_tokens), 'adaptive' or 'disabled', got ${describeOptionValue(thinking.type)}; e.g. thinking: { type: 'enabled', budget_tokens: 4096 }.`,
    );
  }
  if (thinking.type !== 'enabled') return;
  const budget = thinking.budget_tokens;
  if (!Number.isInteger(budget) || (budget as number) < MIN_THINKING_BUDGET) {
    throw new ConfigurationError(
      `anthropicModel: \`thinking.budget_tokens\` must be an integer of at least ${MIN_THINKING_BUDGET} (the API's minimum) with type 'enabled', got ${describeOptionValue(budget)}; e.g. thinking: { type: 'enabled', budget_tokens: 4096 }.`,
    );
  }
}
