/**
 * How long a turn waits before it starts over after a failure in the middle of its stream (an
 * `overloaded_error` frame, a dropped connection): exponential, with jitter, capped. See
 * `AgentOptions.streamRetryBackoff`.
 */
export interface StreamRetryBackoff {
  /**
   * The longest wait before the first retry, in milliseconds; each later retry of the same turn
   * may wait twice as long as the one before. The wait is drawn between half of it and all of it
   * (jitter, so that many runs failing at once do not retry at once).
   * @default 500
   */
  initialDelayMs?: number;
  /**
   * The longest wait before any retry, in milliseconds, a `retryAfterMs` the error carries included.
   * @default 8000
   */
  maxDelayMs?: number;
  /**
   * Waits `ms` milliseconds; settles early (either way) once `signal` is aborted. For tests and
   * hosts with a clock of their own (fake timers, a scheduler). `interrupt()` and `close()` end a
   * run's wait at once whatever this function does.
   * @default a `setTimeout` that is cleared when `signal` aborts
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * A number from 0 (inclusive) to 1 (exclusive), for the jitter.
   * @default Math.random
   */
  random?: () => number;
}
