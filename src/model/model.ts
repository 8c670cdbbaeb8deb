import type { AssistantMessage, Message, TextBlock } from './messages.js';
import type { Usage } from './usage.js';
import { argumentError, isObjectValue } from '../errors/argument-error.js';

/** A function tool as sent to the model (the client runs it): name, description and JSON Schema input. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the tool input; always an object schema. */
  input_schema: Record<string, unknown>;
  /**
   * A provider's own tool type this tool implements, e.g. `memory_20250818`. A model that knows the
   * type sends the provider's native definition (`{ type, name }`) instead of the schema; others
   * send `name`, `description` and `input_schema` as for any tool.
   */
  type?: string;
  /**
   * The definition stays out of the model's prompt until tool search finds the tool (sent as
   * `defer_loading: true`; only for models whose `capabilities.toolSearch` is not `'none'`).
   * @default false
   */
  defer_loading?: boolean;
}

/**
 * A provider server tool, run by the provider rather than the client (tool search, web search,
 * context editing, ...): passed to the API unchanged. `type` names the tool and its version.
 * @example
 * const search: ServerToolDefinition = { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' };
 */
export interface ServerToolDefinition {
  /** The provider's tool type with its version, e.g. `tool_search_tool_bm25_20251119`. */
  type: string;
  /** The name the provider's `server_tool_use` blocks carry, e.g. `tool_search_tool_bm25`. */
  name: string;
  [key: string]: unknown;
}

/** One entry of a request's tool list: a function tool or a provider server tool. */
export type RequestTool = ToolDefinition | ServerToolDefinition;

/**
 * Narrows a request tool to a {@link ServerToolDefinition}: a `type` and no `input_schema`.
 * Function tools carry an `input_schema` (and may name a provider type they implement, like the
 * memory tool).
 */
export function isServerToolDefinition(tool: RequestTool): tool is ServerToolDefinition {
  if (!isObjectValue(tool)) throw argumentError('isServerToolDefinition', 'tool', "a request tool ({ name, input_schema } or a server tool's { type, name })", tool);
  return isServerToolDefinitionUnchecked(tool);
}

/** {@link isServerToolDefinition} without its argument checks, for the library's own calls (their arguments are known good). @internal */
export function isServerToolDefinitionUnchecked(tool: RequestTool): tool is ServerToolDefinition {
  const type = (tool as { type?: unknown }).type;
  return typeof type === 'string' && type !== 'custom' && !('input_schema' in tool);
}

/**
 * How a model reaches deferred tools (tools sent with `defer_loading: true`):
 * - `'server'`: the provider takes `defer_loading`, runs the tool search server tools (regex and
 *   BM25 variants), and expands `tool_reference` blocks a client-side search returns;
 * - `'tool-reference'`: the provider takes `defer_loading` and expands `tool_reference` blocks in
 *   tool results, but has no server-side search;
 * - `'none'`: neither; deferred tools are left out of the request and the client-side
 *   `ToolSearch` tool answers with their definitions as text.
 */
export type ToolSearchSupport = 'server' | 'tool-reference' | 'none';

/** What a model supports beyond plain function tools. */
export interface ModelCapabilities {
  /**
   * How the model reaches deferred tools; see {@link ToolSearchSupport}.
   * @default 'none'
   */
  toolSearch?: ToolSearchSupport;
  /**
   * The agent counts each request with `countTokens` before sending it (an exact context figure
   * at the price of one extra call per turn); otherwise it estimates, calibrated by the usage the
   * last response reported.
   * @default false
   */
  countTokens?: boolean;
}

/** Why the model stopped, as reported by the API. Unknown values pass through. */
export type StopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded'
  | (string & {});

/**
 * What the API said about why it stopped, beside the stop reason: for a streaming classifier's
 * `refusal`, the policy `category` and a human-readable `explanation` a host may show its user
 * (either may be null when the refusal maps to no named category).
 */
export interface StopDetails {
  /** The kind of stop, e.g. `refusal`. */
  type: string;
  /** The policy category (e.g. `cyber`), or null. */
  category: string | null;
  /** A sentence for the user, or null (then write your own). */
  explanation: string | null;
}

/** Everything one model call needs. The loop builds it; adapters translate it. */
export interface ModelRequest {
  /** System prompt blocks; identical on every turn of a session. */
  system: TextBlock[];
  /**
   * Function tools and provider server tools in a fixed order. The part the model reads is
   * identical on every turn of a session; deferred tools (`defer_loading`) that a server announces
   * mid-session may be appended, which leaves the prompt's prefix unchanged.
   */
  tools: RequestTool[];
  /** The conversation so far. Adapters must not mutate it. */
  messages: readonly Message[];
  /**
   * Aborts the call. A Model should stop its request when it aborts (free the connection, stop
   * paying for tokens); the loop does not wait for it either way: on `interrupt()` or `close()`
   * the turn is given up at once, the stream is read no further (which ends it), and nothing it
   * yields afterwards reaches the host or the session. The run makes its signal when something
   * first reads it (here or in a tool's arguments), so a model that never looks at it costs the
   * run none; reading it, spreading the request or assigning the field work as on a plain field.
   */
  signal?: AbortSignal;
  /**
   * Constrain the model's text answer to this JSON Schema (structured output), for models with
   * `structuredOutput: true`. Set on every request of a run asked for a typed `output`.
   */
  outputFormat?: { type: 'json_schema'; schema: Record<string, unknown> };
}

/** The assembled result of one model call. */
export interface ModelResponse {
  /** The message id assigned by the provider, when it has one. */
  id?: string;
  /** The model that answered, when the provider says. */
  model?: string;
  message: AssistantMessage;
  stopReason: StopReason | null;
  /** What the provider said about the stop beside `stopReason` (the API's `stop_details`), when it said anything. */
  stopDetails?: StopDetails;
  usage: Usage;
}

/**
 * What a model stream yields: deltas as they arrive, then exactly one `response` event with the
 * assembled message. A stream that fails throws (see `ModelError`).
 *
 * `usage` (optional) is the call's token usage so far, each one replacing the last (the Anthropic
 * API reports the input at the start of a stream, the output at its end). The loop counts it only
 * when the call does not complete: interrupted, or failed midway (and then retried or not), so the
 * run's usage, cost and budget include what such a call was billed for; a completed call counts
 * its `response.usage`. The text, thinking and tool input deltas such a call yielded after its
 * last `usage` event are estimated as output tokens on top of it (`RunResult.estimatedOutputTokens`),
 * so a model that reports its output only at the end need not do anything more. A model that
 * never yields `usage` leaves such calls uncounted.
 */
export type ModelStreamEvent =
  | { type: 'text-delta'; index: number; text: string }
  | { type: 'thinking-delta'; index: number; thinking: string }
  | { type: 'tool-input-start'; index: number; id: string; name: string }
  | { type: 'tool-input-delta'; index: number; partialJson: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'response'; response: ModelResponse };

/** The result of counting the tokens of a request. */
export interface TokenCount {
  /** Input tokens the request would take: system, tools and messages. */
  inputTokens: number;
}

/**
 * The contract between the loop and a language model. Implement it to plug in any provider;
 * `anthropicModel` is the default.
 */
export interface Model {
  /** Version of this contract the model implements. */
  readonly specificationVersion: 'v1';
  /** Provider name, e.g. `anthropic` or `scripted`. */
  readonly provider: string;
  /** Model id used for pricing and logs, e.g. `claude-sonnet-4-6`. */
  readonly modelId: string;
  /**
   * What the model supports beyond plain function tools (tool search, deferred tools).
   * @default {} (no deferred tools: a client-side `ToolSearch` stands in)
   */
  readonly capabilities?: ModelCapabilities;
  /** Streams one assistant turn. */
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
  /**
   * The model constrains its answer to `request.outputFormat` natively (the Messages API's
   * structured outputs). Without it, a run asked for a typed `output` tells the model the JSON
   * Schema in the prompt and validates the answer, asking again on a mismatch.
   * @default false
   */
  readonly structuredOutput?: boolean;
  /**
   * Counts the input tokens `request` would take, exactly, without running the model (for
   * Anthropic: the Messages API's token counting endpoint). Optional: without it, context size is
   * estimated. `request.signal` is aborted when the run is interrupted or the agent closed; the
   * agent does not wait for a count that ignores it. A count that fails falls back to the estimate.
   * @throws ModelError when the provider refuses or cannot be reached.
   */
  countTokens?(request: ModelRequest): Promise<TokenCount>;
}
