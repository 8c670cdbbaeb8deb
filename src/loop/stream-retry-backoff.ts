import { ModelError } from '../errors/model-error.js';
import { onAbort } from './on-abort.js';
import type { StreamRetryBackoff } from '../types/stream-retry-backoff.js';

export type { StreamRetryBackoff };

/** The backoff when `streamRetryBackoff` is not set. */
export const DEFAULT_STREAM_RETRY_BACKOFF = { initialDelayMs: 500, maxDelayMs: 8000 } as const;

/**
 * How long to wait before the `retry`-th retry (1 for the first) of a turn that failed with
 * `error`: the `retryAfterMs` it carries when it carries one, else `initialDelayMs · 2^(retry-1)`
 * with jitter (between half of it and all of it); never more than `maxDelayMs`. 0 with the backoff
 * turned off (`false`).
 */
export function streamRetryDelay(backoff: StreamRetryBackoff | false | undefined, retry: number, error: ModelError): number {
  if (backoff === false) return 0;
  const initial = backoff?.initialDelayMs ?? DEFAULT_STREAM_RETRY_BACKOFF.initialDelayMs;
  const max = backoff?.maxDelayMs ?? DEFAULT_STREAM_RETRY_BACKOFF.maxDelayMs;
  const after = error.retryAfterMs;
  if (after !== undefined) return Math.min(max, after);
  const ceiling = Math.min(max, initial * 2 ** Math.min(retry - 1, 30));
  const random = (backoff?.random ?? Math.random)();
  const unit = Number.isFinite(random) ? Math.min(Math.max(random, 0), 1) : 1;
  return Math.round(ceiling / 2 + (ceiling / 2) * unit);
}

/** Waits `ms` milliseconds with a timer that is cleared (and the wait resolved) once `signal` aborts. */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const stopListening = onAbort(signal, () => {
      clearTimeout(timer);
      resolve();
    });
    const timer = setTimeout(() => {
      stopListening();
      resolve();
    }, ms);
  });
}

/**
 * Whether `error` is a failure inside a model's stream that is retried (`maxStreamRetries`):
 * retryable and without an HTTP status. HTTP-level failures were already retried by the adapter
 * (the SDK's own retry), so they are not retried again.
 */
export function isStreamRetryable(error: unknown): error is ModelError {
  return ModelError.isInstance(error) && error.retryable && error.status === undefined;
}

/** Waits `delayMs` before a stream retry, with the backoff's own `sleep` when it has one. */
export function waitBeforeStreamRetry(backoff: StreamRetryBackoff | false | undefined, delayMs: number, signal: AbortSignal): Promise<void> {
  return (backoff !== false && backoff?.sleep ? backoff.sleep : sleepUnlessAborted)(delayMs, signal);
}
