import type { APIError } from '@anthropic-ai/sdk';
import { ModelError } from '../../errors/model-error.js';
import { describeThrown } from '../../errors/describe-thrown.js';
import { retryAfterMs } from './retry-after-ms.js';

/**
 * Whether an error is an instance of the SDK's error class of that name, by the names along its
 * prototype chain (the SDK's `_errorName`, or the class name): works without loading the SDK
 * here, with a client from another copy of it, and with the SDK bundled into a host's app.
 */
function isSdkError(error: unknown, className: string): boolean {
  if (!(error instanceof Error)) return false;
  for (let proto = Object.getPrototypeOf(error); proto; proto = Object.getPrototypeOf(proto)) {
    const constructor = (proto as { constructor?: { name?: string; _errorName?: string } }).constructor;
    // `_errorName` is the SDK's own static name, kept when a bundler renames the class.
    if (constructor?._errorName === className || constructor?.name === className) return true;
  }
  return false;
}

/** Error types of the API that mean "the same request may succeed later". */
const retryableErrorTypes = new Set(['overloaded_error', 'rate_limit_error', 'api_error', 'timeout_error']);

/** What {@link mapAnthropicError} knows besides the error itself. */
export interface MapAnthropicErrorContext {
  /** The caller's abort signal: an error after it fired is reported as an abort. */
  signal?: AbortSignal | undefined;
  /** Request id of the HTTP response, for errors raised after the headers arrived. */
  requestId?: string | undefined;
}

/**
 * Translates anything the Anthropic SDK (or the stream under it) throws into a {@link ModelError}
 * with `status`, `errorType`, `retryable` and `requestId` set.
 *
 * - HTTP errors keep their status; 408, 409, 429 and 5xx (529 overloaded included) are retryable,
 *   unless the response said otherwise with `x-should-retry`; `retryAfterMs` is the wait its
 *   `retry-after-ms` / `retry-after` header asked for.
 * - A mid-stream `error` event (HTTP 200, no status) keeps its `error.type`; `overloaded_error`,
 *   `rate_limit_error`, `api_error` and `timeout_error` are retryable.
 * - Connection failures, timeouts and a stream that breaks off are retryable, without a status.
 * - An abort through the caller's signal becomes `errorType: 'aborted'`, not retryable.
 * @param error - what was thrown.
 * @param context - the caller's signal and the response's request id, when known.
 */
export function mapAnthropicError(error: unknown, context: MapAnthropicErrorContext = {}): ModelError {
  if (ModelError.isInstance(error)) return error;
  const requestId = context.requestId;
  if (isSdkError(error, 'APIUserAbortError') || context.signal?.aborted) {
    return new ModelError('The model call was aborted through its signal before the response was complete.', {
      cause: error,
      errorType: 'aborted',
      retryable: false,
      ...(requestId === undefined ? {} : { requestId }),
    });
  }
  if (!isSdkError(error, 'APIError') && error instanceof Error && /authentication method|apiKey|authToken/i.test(error.message)) {
    // The SDK found no credentials before sending anything: retrying cannot help.
    return new ModelError(
      'No Anthropic credentials: set the ANTHROPIC_API_KEY environment variable, or pass apiKey (or a configured client) to anthropicModel().',
      { cause: error, errorType: 'authentication_error', retryable: false },
    );
  }
  if (isSdkError(error, 'APIConnectionTimeoutError')) {
    return new ModelError('The Anthropic API did not answer in time (request timed out); retry later or raise the timeout on the client.', {
      cause: error,
      retryable: true,
    });
  }
  if (isSdkError(error, 'APIConnectionError')) {
    return new ModelError(`Could not reach the Anthropic API (${describeCause(error)}); check the network and \`baseURL\`, then retry.`, {
      cause: error,
      retryable: true,
    });
  }
  if (isSdkError(error, 'APIError')) return fromApiError(error as APIError, requestId);
  return new ModelError(`The response stream from the Anthropic API broke off (${describeCause(error)}); the turn can be retried.`, {
    cause: error,
    retryable: true,
    ...(requestId === undefined ? {} : { requestId }),
  });
}

function fromApiError(error: APIError, fallbackRequestId: string | undefined): ModelError {
  const body = (error.error ?? {}) as { error?: { type?: unknown; message?: unknown }; request_id?: unknown };
  const errorType = readString(body.error?.type) ?? readString((error as { type?: unknown }).type);
  const apiMessage = readString(body.error?.message) ?? error.message;
  const requestId =
    readString(error.requestID) ?? readString(body.request_id) ?? fallbackRequestId;
  const status = error.status;
  const common = {
    cause: error,
    ...(errorType === undefined ? {} : { errorType }),
    ...(requestId === undefined ? {} : { requestId }),
  };
  if (status === undefined) {
    // An SSE `error` event on an HTTP 200 response.
    return new ModelError(`The Anthropic API sent an error event mid-stream (${errorType ?? 'unknown type'}): ${apiMessage}`, {
      ...common,
      retryable: errorType !== undefined && retryableErrorTypes.has(errorType),
    });
  }
  // The wait the answer asked for, for the host (a job queue's delay): the SDK has already waited
  // it before each of its own retries, and the loop does not retry an HTTP error again.
  const after = retryAfterMs(error.headers);
  return new ModelError(`The Anthropic API answered HTTP ${status}${errorType ? ` ${errorType}` : ''}: ${apiMessage}`, {
    ...common,
    status,
    retryable: isRetryableStatus(status, error.headers),
    ...(after === undefined ? {} : { retryAfterMs: after }),
  });
}

function isRetryableStatus(status: number, headers: Headers | undefined): boolean {
  const shouldRetry = headers?.get('x-should-retry');
  if (shouldRetry === 'true') return true;
  if (shouldRetry === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function readString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const message = describeThrown(error);
  const text = message.replace(/\.$/, '');
  return cause instanceof Error && cause.message && cause.message !== message ? `${text}; cause: ${cause.message}` : text;
}
