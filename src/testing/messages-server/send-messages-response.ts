import type { ServerResponse } from 'node:http';
import { AnthropicMessageAccumulator } from '../../model/anthropic/anthropic-message-accumulator.js';
import type { AnthropicStreamEvent } from '../../model/anthropic/anthropic-stream-event.js';
import { apiErrorBody } from './api-error-body.js';
import type { FaultResponse, MessagesRequestBody, MessagesServerTurn, StaticMessagesResponse } from './messages-server-types.js';
import { recordingResponses, type RecordingFrames } from './recording-responses.js';
import { scriptedTurnEvents, scriptedTurnMessage, type WireEvent } from './scripted-turn-events.js';
import { setOwnField } from '../../model/set-own-field.js';

/** Everything needed to answer one request. */
export interface ResponseContext {
  body: MessagesRequestBody;
  /** 1-based request number, used for ids. */
  number: number;
  requestId: string;
}

const defaultFaultTurn: MessagesServerTurn = { content: [{ type: 'text', text: 'This answer will not arrive in full.' }] };

const rateLimitMessage =
  'This request would exceed the rate limit for your organization of 20,000 input tokens per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.';

/** Sends an HTTP error in the real API's body shape. */
export function sendApiError(
  response: ServerResponse,
  status: number,
  errorType: string,
  message: string,
  requestId: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId, ...headers });
  response.end(JSON.stringify(apiErrorBody(errorType, message, requestId)));
}

/** One response of a recording, already split into frames. */
export interface RecordedResponse {
  recordedResponse: RecordingFrames;
}

/**
 * Answers one request with a scripted turn, a recording or a fault, streamed or as JSON.
 * @returns the further responses of a recording that holds several, to answer the next requests.
 */
export async function sendMessagesResponse(
  response: ServerResponse,
  item: StaticMessagesResponse | RecordedResponse,
  context: ResponseContext,
): Promise<RecordedResponse[]> {
  const streaming = context.body.stream === true;
  if ('fault' in item) {
    await sendFault(response, item, context, streaming);
    return [];
  }
  if ('recording' in item || 'recordedResponse' in item) {
    const [first = { frames: [], events: [] }, ...rest] =
      'recording' in item ? recordingResponses(item.recording) : [item.recordedResponse];
    const streamError = first.events.find((event) => event.type === 'error');
    if (streaming) await sendFrames(response, first.frames, context.requestId);
    else if (streamError) sendRecordedError(response, streamError, context.requestId);
    else sendJson(response, assembleMessage(first.events), context.requestId);
    return rest.map((recordedResponse) => ({ recordedResponse }));
  }
  const fallbackId = `msg_loopback_${context.number}`;
  if (!streaming) sendJson(response, scriptedTurnMessage(item, context.body, fallbackId), context.requestId);
  else await sendFrames(response, scriptedTurnEvents(item, context.body, fallbackId).map(toFrame), context.requestId, item.endAfter);
  return [];
}

async function sendFault(
  response: ServerResponse,
  fault: FaultResponse,
  context: ResponseContext,
  streaming: boolean,
): Promise<void> {
  const { requestId } = context;
  const retryHeaders = (retryAfterMs: number | undefined): Record<string, string> =>
    retryAfterMs === undefined ? {} : { 'retry-after-ms': String(retryAfterMs) };
  switch (fault.fault) {
    case 'rate-limit':
      return sendApiError(response, 429, 'rate_limit_error', rateLimitMessage, requestId, {
        'retry-after': String(fault.retryAfterSeconds ?? 0),
        ...retryHeaders(fault.retryAfterMs),
      });
    case 'overloaded':
      return sendApiError(response, 529, 'overloaded_error', 'Overloaded', requestId, retryHeaders(fault.retryAfterMs));
    case 'server-error':
      return sendApiError(response, 500, 'api_error', 'Internal server error', requestId, retryHeaders(fault.retryAfterMs));
    case 'api-error':
      return sendApiError(response, fault.status, fault.errorType, fault.message, requestId, retryHeaders(fault.retryAfterMs));
    case 'stream-error': {
      const errorType = fault.errorType ?? 'overloaded_error';
      const message = errorType === 'overloaded_error' ? 'Overloaded' : 'Internal server error';
      if (!streaming) return sendApiError(response, errorType === 'overloaded_error' ? 529 : 500, errorType, message, requestId);
      const errorFrame = `event: error\ndata: ${JSON.stringify({
        type: 'error',
        error: { details: null, type: errorType, message },
        request_id: requestId,
      })}\n\n`;
      const turnFrames = faultTurnFrames(fault.turn, context);
      // The error frame takes the place of message_stop at the latest, however large `after` is.
      const frames = turnFrames.slice(0, Math.min(fault.after ?? 3, turnFrames.length - 1));
      return sendFrames(response, [...frames, errorFrame], requestId);
    }
    case 'drop-connection': {
      response.writeHead(200, { 'content-type': streaming ? 'text/event-stream' : 'application/json', 'request-id': requestId });
      response.flushHeaders(); // with after: 0 the client still gets its 200 before the drop
      const frames = streaming ? faultTurnFrames(fault.turn, context).slice(0, fault.after ?? 3) : ['{"id":"msg_'];
      for (const frame of frames) await write(response, frame);
      response.socket?.destroy();
      return;
    }
  }
}

/**
 * A non-streaming request gets no partial message for a response cut off by an error frame: the
 * real API answers it with the HTTP error instead (529 for `overloaded_error`, else 500).
 */
function sendRecordedError(response: ServerResponse, event: WireEvent, requestId: string): void {
  const error = (event.error ?? {}) as { type?: unknown; message?: unknown };
  const errorType = typeof error.type === 'string' ? error.type : 'api_error';
  const message = typeof error.message === 'string' ? error.message : 'Internal server error';
  sendApiError(response, errorType === 'overloaded_error' ? 529 : 500, errorType, message, requestId);
}

function faultTurnFrames(turn: MessagesServerTurn | undefined, context: ResponseContext): string[] {
  return scriptedTurnEvents(turn ?? defaultFaultTurn, context.body, `msg_loopback_${context.number}`).map(toFrame);
}

function toFrame(event: WireEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

async function sendFrames(response: ServerResponse, frames: string[], requestId: string, endAfter?: PromiseLike<unknown>): Promise<void> {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'request-id': requestId,
  });
  // One write per frame, so the client sees the events arrive in separate chunks.
  for (const frame of frames) await write(response, frame);
  if (endAfter !== undefined) await Promise.resolve(endAfter).then(ignore, ignore);
  response.end();
}

function ignore(): void {}

function sendJson(response: ServerResponse, value: unknown, requestId: string): void {
  response.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
  response.end(JSON.stringify(value));
}

function write(response: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve) => {
    if (response.destroyed) return resolve();
    response.write(chunk, () => resolve());
  });
}

/** Assembles the non-streaming message a recorded stream stands for. */
function assembleMessage(events: WireEvent[]): Record<string, unknown> {
  const accumulator = new AnthropicMessageAccumulator();
  let message: Record<string, unknown> = {};
  let usage: Record<string, unknown> = {};
  for (const event of events) {
    accumulator.apply(event as AnthropicStreamEvent);
    if (event.type === 'message_start') {
      message = { ...(event.message as Record<string, unknown>) };
      usage = { ...(message.usage as Record<string, unknown>) };
    } else if (event.type === 'message_delta') {
      const delta = event.delta as Record<string, unknown>;
      for (const [key, value] of Object.entries(delta)) setOwnField(message, key, value);
      for (const [key, value] of Object.entries((event.usage as Record<string, unknown>) ?? {})) {
        if (value !== null && value !== undefined) setOwnField(usage, key, value);
      }
    }
  }
  accumulator.finish();
  return { ...message, content: accumulator.content, usage };
}
