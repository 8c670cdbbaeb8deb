import type { ContentBlock, Message, TextBlock } from '../../model/messages.js';
import type { StopDetails, StopReason } from '../../model/model.js';
import type { Usage } from '../../model/usage.js';
import type { ScriptMismatchError } from '../../errors/script-mismatch-error.js';
import type { PromptCachingOptions } from './prompt-cache.js';

/**
 * One assistant turn the server answers with, streamed as realistic server-sent events (or as one
 * JSON message for a non-streaming request). A turn built with the scripted model's `turn()`
 * builder fits this shape; its other fields are ignored here.
 */
export interface MessagesServerTurn {
  /** The assistant content blocks, in order. */
  content: ContentBlock[];
  /**
   * Why the turn stopped.
   * @default 'tool_use' when `content` has a `tool_use` block, else 'end_turn'
   */
  stopReason?: StopReason;
  /**
   * Sent as the API's `stop_details` beside the stop reason (e.g. a refusal's `category` and
   * `explanation`).
   * @default undefined (none sent)
   */
  stopDetails?: StopDetails;
  /**
   * Token counts to report; missing counts are estimated from the request and content sizes.
   * @default estimated
   */
  usage?: Partial<Usage>;
  /**
   * Message id.
   * @default `msg_loopback_<n>`
   */
  id?: string;
  /**
   * A streamed answer's HTTP response ends (its last chunk, after `message_stop`) only once this
   * settles, fulfilled or rejected: to test what a client does between the last event and the end
   * of the body, which the real API can send in a later packet. A non-streaming answer ignores it.
   * @default the response ends right after `message_stop`
   */
  endAfter?: PromiseLike<unknown>;
}

/**
 * Answers with a recorded real response, served byte for byte (or assembled into one JSON message
 * for a non-streaming request; a response cut off by an `error` frame answers a non-streaming
 * request with the matching HTTP error instead: 529 for `overloaded_error`, else 500). A recording
 * that holds several responses (each starting at a `message_start`, e.g. a response cut off by an
 * `error` frame and then its retry) answers that many consecutive requests.
 */
export interface RecordingResponse {
  /**
   * Raw text of a recording, in either format: full SSE (`event:` + `data:` lines) or one JSON
   * event per line (vercel-ai `.chunks.txt`). The format is detected.
   */
  recording: string;
}

/** Fields shared by the HTTP error faults. */
export interface HttpFaultTiming {
  /**
   * Sets a `retry-after-ms` header (honoured by the SDK), so tests can retry without waiting.
   * @default no header
   */
  retryAfterMs?: number;
}

/** A failure to inject instead of a normal answer. */
export type FaultResponse =
  | (HttpFaultTiming & {
      /** HTTP 429 `rate_limit_error`, with a `retry-after` header. */
      fault: 'rate-limit';
      /**
       * Value of the `retry-after` header, in seconds.
       * @default 0
       */
      retryAfterSeconds?: number;
    })
  | (HttpFaultTiming & {
      /** HTTP 529 `overloaded_error`. */
      fault: 'overloaded';
    })
  | (HttpFaultTiming & {
      /** HTTP 500 `api_error`. */
      fault: 'server-error';
    })
  | (HttpFaultTiming & {
      /**
       * Any HTTP error in the API's body shape, e.g. 413 `request_too_large` or 400
       * `invalid_request_error` "Could not process image".
       */
      fault: 'api-error';
      /** The HTTP status, 400 to 599. */
      status: number;
      /** The body's `error.type`, e.g. `request_too_large`. */
      errorType: string;
      /** The body's `error.message`. */
      message: string;
    })
  | {
      /**
       * HTTP 200, some events of `turn`, then an SSE `error` frame and no `message_stop`. A
       * non-streaming request gets the matching HTTP error (529 or 500) instead.
       */
      fault: 'stream-error';
      /**
       * How many events to send before the error frame. Capped so the error frame always takes
       * the place of `message_stop`.
       * @default 3
       */
      after?: number;
      /**
       * The error frame's `error.type`.
       * @default 'overloaded_error'
       */
      errorType?: string;
      /**
       * The turn whose events precede the error.
       * @default a short text turn
       */
      turn?: MessagesServerTurn;
    }
  | {
      /** HTTP 200, some events of `turn`, then the socket is destroyed. */
      fault: 'drop-connection';
      /**
       * How many events to send before dropping the connection.
       * @default 3
       */
      after?: number;
      /**
       * The turn whose events precede the drop.
       * @default a short text turn
       */
      turn?: MessagesServerTurn;
    };

/** A request body as the server received it (parsed JSON). */
export interface MessagesRequestBody {
  model: string;
  /** Absent on token counting requests. */
  max_tokens: number;
  messages: Message[];
  system?: string | TextBlock[];
  tools?: Array<Record<string, unknown>>;
  stream?: boolean;
  [key: string]: unknown;
}

/** What a dynamic response function is given. */
export interface MessagesRequestInfo {
  /** The parsed request body. */
  body: MessagesRequestBody;
  /** 1-based number of this request among all requests the server received. */
  number: number;
  /** The request headers, lower-case names. */
  headers: Record<string, string | string[] | undefined>;
}

/** A static answer: a scripted turn, a recording or a fault. */
export type StaticMessagesResponse = MessagesServerTurn | RecordingResponse | FaultResponse;

/** One queued answer: static, or computed from the request. */
export type MessagesServerResponse =
  | StaticMessagesResponse
  | ((request: MessagesRequestInfo) => StaticMessagesResponse | Promise<StaticMessagesResponse>);

/** Options of `startMessagesServer`. */
export interface MessagesServerOptions {
  /**
   * Answers, consumed one per accepted request, in order. Requests rejected by validation do not
   * consume an answer.
   * @default []
   */
  responses?: MessagesServerResponse[];
  /**
   * Reject requests the real API rejects with its HTTP 400 and wording (see
   * `validateMessagesRequestBody`): missing `model`/`max_tokens`; a custom tool whose
   * `input_schema` is not `type: "object"`; a role other than user/assistant, roles not
   * alternating, first message not from the user; empty content, empty or whitespace-only text; an
   * image without `source`, a thinking block without `signature`; tool_use without tool_result,
   * orphan or duplicate tool_result, tool_result blocks not at the start of the user message; a
   * final assistant prefill ending in whitespace; `cache_control` on thinking or empty text, or on
   * more than 4 blocks; thinking with `temperature` other than 1 or `budget_tokens` not below
   * `max_tokens`; more than 100 images and documents, an image over 8000 pixels a side, or one
   * over 2000 in a request of more than 20 images (sizes read from the images' headers).
   * @default true
   */
  validate?: boolean;
  /**
   * Model prompt caching as the API documents it (breakpoints, the longest cached prefix, the
   * minimum cacheable length per model, 5-minute and 1-hour lifetimes on an injectable clock):
   * scripted turns then report `input_tokens`, `cache_read_input_tokens` and
   * `cache_creation_input_tokens` from it (a turn's own `usage` still wins field by field). As
   * on the API, a request reads the cache when it arrives and what it writes is readable once its
   * answer begins: requests that arrive while a response function holds an answer back do not
   * read what that answer's request writes.
   * @default false (scripted turns report an input estimate and no cache use)
   */
  promptCaching?: boolean | PromptCachingOptions;
  /**
   * Refuse a request whose token count exceeds this window with the real HTTP 400
   * `prompt is too long: N tokens > W maximum` (the request consumes no answer). A function
   * receives the request's model id.
   * @default undefined (no limit)
   */
  contextWindow?: number | ((model: string) => number | undefined);
}

/** A running loopback Messages API server. */
export interface MessagesServer {
  /** Base URL to pass as the SDK's `baseURL`, e.g. `http://127.0.0.1:53122`. */
  readonly url: string;
  /** Every request body received on `/v1/messages`, parsed, in arrival order (retries included). */
  readonly requests: MessagesRequestBody[];
  /**
   * Requests the server could not answer as scripted, each also answered with an HTTP error: no
   * answer left or a response function that threw (HTTP 500), or a body that is not JSON (HTTP 400).
   */
  readonly errors: ScriptMismatchError[];
  /** Every request body received on `/v1/messages/count_tokens`, parsed, in arrival order. */
  readonly countTokensRequests: MessagesRequestBody[];
  /** Answers not consumed yet. */
  readonly pendingResponses: number;
  /**
   * TCP connections accepted so far. A client that keeps its connections alive opens one for a
   * whole session of requests made one after the other; one that cuts its responses short (and so
   * closes its connection) opens one per request.
   */
  readonly connections: number;
  /** Adds answers to the end of the queue. */
  enqueue(...responses: MessagesServerResponse[]): void;
  /** Stops the server and closes open connections. */
  close(): Promise<void>;
}
