import { ModelError } from '../../errors/model-error.js';
import type { ModelStreamEvent } from '../model.js';
import { AnthropicMessageAccumulator } from './anthropic-message-accumulator.js';
import type { AnthropicStreamEvent } from './anthropic-stream-event.js';
import { mapAnthropicError } from './map-anthropic-error.js';
import { readRestOfStream } from './read-rest-of-stream.js';

/** Where the events come from, for error reports. */
export interface StreamAnthropicTurnContext {
  /** The caller's abort signal. */
  signal?: AbortSignal | undefined;
  /** Request id of the HTTP response. */
  requestId?: string | undefined;
}

/** A response stream opened: its events and the HTTP response's request id. */
export interface OpenedAnthropicStream {
  events: AsyncIterable<AnthropicStreamEvent>;
  requestId?: string | undefined;
  /** Aborts the HTTP request at once (the SDK stream's `controller.abort()`); see `readRestOfStream`. */
  cancel?: (() => void) | undefined;
  /**
   * Told once whether the response began (its first event was `message_start`) or failed before
   * it: requests waiting to read this one's prompt prefix from the cache go then.
   */
  began?: ((began: boolean) => void) | undefined;
}

/**
 * Turns the server-sent events of one streamed Messages API response into {@link ModelStreamEvent}s:
 * deltas as they arrive, the usage so far when `message_start` and `message_delta` report it, then
 * exactly one `response` with the assembled message.
 *
 * @param events - the SDK's event stream (`messages.create({ stream: true })`), or any iterable of
 *   parsed events; or a function that sends the request and gives them, called at the first
 *   `next()` (so that the model's stream is this generator itself: each generator an event passes
 *   through costs about 0.1 µs, a few per cent of a streamed answer's CPU).
 * @param context - signal and request id, for error reports.
 * @throws ModelError when the SDK or the connection fails (see `mapAnthropicError`), and, retryable,
 *   when the stream ends before `message_stop`; whatever `events()` throws.
 */
export async function* streamAnthropicTurn(
  events: AsyncIterable<AnthropicStreamEvent> | (() => Promise<OpenedAnthropicStream>),
  given: StreamAnthropicTurnContext = {},
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  let context = given;
  let cancel: (() => void) | undefined;
  let began: ((began: boolean) => void) | undefined;
  if (typeof events === 'function') {
    const opened = await events();
    events = opened.events;
    cancel = opened.cancel;
    began = opened.began;
    if (opened.requestId !== undefined) context = { ...given, requestId: opened.requestId };
  }
  const accumulator = new AnthropicMessageAccumulator();
  let iterator: AsyncIterator<AnthropicStreamEvent> | undefined;
  let finished = false;
  const abortedError = () => mapAnthropicError(context.signal?.reason, context);
  try {
    iterator = events[Symbol.asyncIterator]();
    // Stop reading at message_stop: a transport error after it must not cost the finished message.
    while (!accumulator.stopped) {
      let next: IteratorResult<AnthropicStreamEvent>;
      try {
        next = await iterator.next();
      } catch (error) {
        finished = true; // the iterator is done once it threw
        throw mapAnthropicError(error, context);
      }
      if (began !== undefined) {
        began(!next.done && (next.value as { type?: unknown } | null)?.type === 'message_start');
        began = undefined;
      }
      if (next.done) {
        finished = true;
        break;
      }
      // The SDK may still hand out buffered events after an abort: nothing more is delivered.
      if (context.signal?.aborted) throw abortedError();
      const event = next.value;
      const delta = applyEvent(accumulator, event, context);
      if (delta) yield delta;
      // The usage so far (input at message_start, output at message_delta): what a call given up
      // midway was billed for. A copy: the accumulator goes on updating its own.
      else if (reportsUsage(event)) {
        yield { type: 'usage', usage: { ...accumulator.usage } };
      }
    }
    if (!accumulator.stopped) throw incompleteStreamError(accumulator, context);
    if (context.signal?.aborted) throw abortedError();
    yield { type: 'response', response: accumulator.toResponse() };
  } finally {
    // Failed or given up before the first event: those waiting for this response go now.
    began?.(false);
    // The message is complete: the rest of the response (its end, normally at once) is read in
    // the background, so the connection goes back to the pool instead of being closed. A consumer
    // that stopped early (break/return), or an interrupted run, aborts the HTTP request under the
    // iterator. A finished iterator has nothing to hand back.
    if (!finished && iterator !== undefined) {
      if (accumulator.stopped && !context.signal?.aborted) readRestOfStream(iterator, cancel);
      else await iterator.return?.();
    }
  }
}

function incompleteStreamError(accumulator: AnthropicMessageAccumulator, context: StreamAnthropicTurnContext): ModelError {
  if (context.signal?.aborted) return mapAnthropicError(context.signal.reason, context);
  const where = accumulator.started ? 'before `message_stop`' : 'before `message_start`';
  return new ModelError(`The response stream from the Anthropic API ended ${where}; the turn can be retried.`, {
    retryable: true,
    ...(context.requestId === undefined ? {} : { requestId: context.requestId }),
  });
}

/** Applies one event; an event malformed past what the accumulator tolerates fails the attempt (retryable), never with a bare TypeError. */
function applyEvent(accumulator: AnthropicMessageAccumulator, event: AnthropicStreamEvent, context: StreamAnthropicTurnContext): ModelStreamEvent | undefined {
  try {
    return accumulator.apply(event);
  } catch (error) {
    if (ModelError.isInstance(error)) throw error;
    const type = typeof (event as { type?: unknown } | null)?.type === 'string' ? (event as { type: string }).type.slice(0, 40) : 'unknown';
    return failMalformed(error, type, context);
  }
}

function failMalformed(error: unknown, type: string, context: StreamAnthropicTurnContext): never {
  throw new ModelError(`The response stream from the Anthropic API sent a malformed "${type}" event (${error instanceof Error ? error.message : String(error)}); the answer was discarded and the turn can be retried.`, {
    cause: error,
    retryable: true,
    ...(context.requestId === undefined ? {} : { requestId: context.requestId }),
  });
}

/** Whether an event carries usage counts (input at `message_start`, output at `message_delta`). */
function reportsUsage(event: AnthropicStreamEvent): boolean {
  if (typeof event !== 'object' || event === null) return false;
  if (event.type === 'message_start') return typeof event.message === 'object' && event.message !== null && typeof event.message.usage === 'object' && event.message.usage !== null;
  return event.type === 'message_delta' && typeof event.usage === 'object' && event.usage !== null;
}
