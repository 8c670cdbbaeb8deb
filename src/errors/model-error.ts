import { AgentHarnessError, hasCode, type AgentHarnessErrorOptions } from './agent-harness-error.js';

/** Fields that describe a failed model call. */
export interface ModelErrorOptions extends AgentHarnessErrorOptions {
  /** HTTP status, when the failure came with one. */
  status?: number;
  /** The API's error type, e.g. `overloaded_error`, `rate_limit_error`, `invalid_request_error`. */
  errorType?: string;
  /** True when repeating the same request may succeed (overload, rate limit, dropped stream). */
  retryable?: boolean;
  /** The provider's request id, for support tickets. */
  requestId?: string;
  /**
   * How long the provider asked to wait before trying again (a `retry-after`), in milliseconds.
   * The loop waits this long (up to `streamRetryBackoff.maxDelayMs`) before a retry after a
   * failure in the middle of a stream, instead of its own backoff.
   */
  retryAfterMs?: number;
}

/** The `code` of a {@link ModelError}. */
const CODE = 'model';

/** A model call failed: an HTTP error, a mid-stream `error` event, or a broken stream. */
export class ModelError extends AgentHarnessError {
  static readonly code = CODE;
  readonly status: number | undefined;
  readonly errorType: string | undefined;
  readonly retryable: boolean;
  readonly requestId: string | undefined;
  /** How long the provider asked to wait before trying again, in milliseconds, when it said. */
  readonly retryAfterMs: number | undefined;
  constructor(message: string, options: ModelErrorOptions = {}) {
    super(CODE, message, options);
    this.status = options.status;
    this.errorType = options.errorType;
    this.retryable = options.retryable ?? false;
    this.requestId = options.requestId;
    const after = options.retryAfterMs;
    this.retryAfterMs = typeof after === 'number' && Number.isFinite(after) && after >= 0 ? after : undefined;
  }
  static override isInstance = hasCode<ModelError>(CODE);
}
