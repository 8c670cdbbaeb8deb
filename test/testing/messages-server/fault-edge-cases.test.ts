import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptMismatchError } from '../../../src/errors/script-mismatch-error.js';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';

let server: MessagesServer;
beforeEach(async () => {
  server = await startMessagesServer();
});
afterEach(() => server.close());

const ask = { model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] };
const post = (body: unknown) =>
  fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const partialRecording = [
  { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'partial' } },
]
  .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
  .join('');
const errorFrame = (type: string, message: string) =>
  `event: error\ndata: {"type":"error","error":{"details":null,"type":"${type}","message":"${message}"}        }\n\n`;

describe('messages server fault edge cases', () => {
  it('a stream-error whose `after` exceeds the turn ends on the error frame, never after message_stop', async () => {
    server.enqueue({ fault: 'stream-error', after: 1000 });
    const wire = await (await post({ ...ask, stream: true })).text();
    expect(wire).not.toContain('message_stop');
    expect(wire.trimEnd().split('\n\n').at(-1)).toMatch(/^event: error\n/);
    expect(wire).toContain('event: message_delta'); // everything else of the turn was sent
  });

  it('a request with malformed JSON gets its 400 and is recorded in server.errors with a clear message', async () => {
    const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{oops' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(server.requests).toHaveLength(0);
    expect(server.errors).toHaveLength(1);
    expect(server.errors[0]).toBeInstanceOf(ScriptMismatchError);
    expect(server.errors[0]!.message).toMatch(/body that is not JSON \(answered HTTP 400\).*"\{oops"/);
  });

  it('a recording cut off by an overloaded error answers a non-streaming request with HTTP 529 in the real body shape', async () => {
    server.enqueue({ recording: partialRecording + errorFrame('overloaded_error', 'Overloaded') });
    const response = await post(ask);
    expect(response.status).toBe(529);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['type', 'error', 'request_id']);
    expect(body).toMatchObject({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(response.headers.get('request-id')).toBe(body.request_id);
  });

  it('any other mid-stream error type answers a non-streaming request with HTTP 500 and that type', async () => {
    server.enqueue({ recording: partialRecording + errorFrame('api_error', 'Internal server error') });
    const response = await post(ask);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { type: 'api_error', message: 'Internal server error' } });
  });

  it('the same recording still streams byte for byte to a streaming request', async () => {
    const recording = partialRecording + errorFrame('overloaded_error', 'Overloaded');
    server.enqueue({ recording });
    const response = await post({ ...ask, stream: true });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(recording);
  });
});
