import type { AssistantMessage, Message, TextBlock } from './messages.js';
import type { Usage } from './usage.js';

/** The JSON Schema description of one tool, as sent to the model. */
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
}

/** Why the model stopped, as reported by the API. Unknown values pass through. */
export type StopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'pause_turn'
  | 'refusal'
  | (string & {});

/** Everything one model call needs. The loop builds it; adapters translate it. */
export interface ModelRequest {
  /** System prompt blocks; identical on every turn of a session. */
  system: TextBlock[];
  /** Tool definitions in a fixed order; identical on every turn of a session. */
  tools: ToolDefinition[];
  /** The conversation so far. Adapters must not mutate it. */
  messages: readonly Message[];
  /** Aborts the call. */
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
  usage: Usage;
}

/**
 * What a model stream yields: deltas as they arrive, then exactly one `response` event with the
 * assembled message. A stream that fails throws (see `ModelError`).
 */
export type ModelStreamEvent =
  | { type: 'text-delta'; index: number; text: string }
  | { type: 'thinking-delta'; index: number; thinking: string }
  | { type: 'tool-input-start'; index: number; id: string; name: string }
  | { type: 'tool-input-delta'; index: number; partialJson: string }
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
   * estimated.
   * @throws ModelError when the provider refuses or cannot be reached.
   */
  countTokens?(request: ModelRequest): Promise<TokenCount>;
}
