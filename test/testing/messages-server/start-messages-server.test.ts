import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptMismatchError } from '../../../src/errors/script-mismatch-error.js';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';
import { fixturePath, hasFixtures } from '../../fixtures-dir.js';

const fixture = (name: string) => readFileSync(fixturePath('anthropic-sse', name), 'utf8');

let server: MessagesServer;
let client: Anthropic;
beforeEach(async () => {
  server = await startMessagesServer();
  client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
});
afterEach(() => server.close());

const ask = { model: 'claude-test', max_tokens: 100, messages: [{ role: 'user' as const, content: 'Hi' }] };
const post = (body: unknown) =>
  fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('startMessagesServer', () => {
  it('binds to 127.0.0.1 and records every request body in order', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    server.enqueue({ content: [{ type: 'text', text: 'one' }] }, { content: [{ type: 'text', text: 'two' }] });
    await client.messages.create(ask);
    await client.messages.create({ ...ask, system: 'Be brief.' });
    expect(server.requests.map((request) => request.system)).toEqual([undefined, 'Be brief.']);
  });

  it('takes response functions in `responses` at start, as its type allows, and still refuses other values', async () => {
    const answering = await startMessagesServer({ responses: [({ number }) => ({ content: [{ type: 'text', text: `answer ${number}` }] })] });
    try {
      const own = new Anthropic({ apiKey: 'test-key', baseURL: answering.url, maxRetries: 0 });
      const message = await own.messages.create(ask);
      expect(message.content).toMatchObject([{ type: 'text', text: 'answer 1' }]);
    } finally {
      await answering.close();
    }
    await expect(startMessagesServer({ responses: ['hi' as never] })).rejects.toThrow(/`responses\[0\]` must be a response object or a function returning one, got the string "hi"/);
  });

  it('streams a scripted turn as realistic events the SDK assembles back', async () => {
    const content = [
      { type: 'thinking' as const, thinking: 'Let me think.', signature: 'sig-1' },
      { type: 'text' as const, text: 'Reading the file now.' },
      { type: 'tool_use' as const, id: 'toolu_1', name: 'Read', input: { path: 'notes/a "quoted" name.md', lines: [1, 2] } },
    ];
    server.enqueue({ content, usage: { inputTokens: 42, outputTokens: 17 } });
    const stream = client.messages.stream(ask);
    const events: Anthropic.MessageStreamEvent[] = [];
    // Cloned on arrival: the SDK's snapshot is the message_start object, mutated by later events.
    stream.on('streamEvent', (event) => events.push(structuredClone(event)));
    const message = await stream.finalMessage();
    expect(message.content).toEqual(content);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject({ input_tokens: 42, output_tokens: 17 });
    const start = events[0] as Anthropic.RawMessageStartEvent;
    expect(start.message.usage.output_tokens).toBe(1);
    const partials = events.filter((event) => event.type === 'content_block_delta' && event.delta.type === 'input_json_delta');
    expect(partials.length).toBeGreaterThanOrEqual(3);
    expect(events.map((event) => event.type).slice(-2)).toEqual(['message_delta', 'message_stop']);
  });

  it('sends a ping among the events', async () => {
    server.enqueue({ content: [{ type: 'text', text: 'hello' }] });
    const text = await (await post({ ...ask, stream: true })).text();
    expect(text).toContain('event: ping\ndata: {"type":"ping"}\n\n');
  });

  it('answers a non-streaming request with one JSON message', async () => {
    server.enqueue({ content: [{ type: 'text', text: 'plain' }], stopReason: 'max_tokens', id: 'msg_fixed' });
    const message = await client.messages.create(ask);
    expect(message).toMatchObject({ id: 'msg_fixed', role: 'assistant', model: 'claude-test', stop_reason: 'max_tokens' });
    expect(message.content).toEqual([{ type: 'text', text: 'plain' }]);
  });

  it.skipIf(!hasFixtures)('serves a full-SSE recording byte for byte', async () => {
    const recording = fixture('official-sdk/basic_response.txt');
    server.enqueue({ recording });
    const response = await post({ ...ask, stream: true });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect((await response.text()).trim()).toBe(recording.replace(/\r\n?/g, '\n').trim());
  });

  it.skipIf(!hasFixtures)('gives a JSON-lines recording its event: lines, so the SDK reads it', async () => {
    const recording = fixture('vercel-ai/anthropic-text.chunks.txt');
    server.enqueue({ recording });
    const text = await (await post({ ...ask, stream: true })).text();
    expect(text.startsWith('event: message_start\ndata: {"type":"message_start"')).toBe(true);
    server.enqueue({ recording });
    const message = await client.messages.stream(ask).finalMessage();
    expect(message.content[0]?.type).toBe('text');
  });

  it.skipIf(!hasFixtures)('assembles a recording for a non-streaming request', async () => {
    server.enqueue({ recording: fixture('official-sdk/tool_use_response.txt') });
    const message = await client.messages.create(ask);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content.find((block) => block.type === 'tool_use')).toMatchObject({ input: expect.any(Object) });
    expect(message.usage.output_tokens).toBeGreaterThan(1);
  });

  it.skipIf(!hasFixtures)('answers consecutive requests from a recording that holds several responses', async () => {
    server.enqueue({ recording: fixture('vercel-ai/anthropic-tool-search-bm25.1.chunks.txt') });
    const first = await client.messages.stream(ask).finalMessage();
    expect(server.pendingResponses).toBe(1);
    const second = await client.messages.stream(ask).finalMessage();
    expect(first.id).not.toBe(second.id);
    expect(server.pendingResponses).toBe(0);
  });

  it('computes an answer from the request with a function', async () => {
    server.enqueue(({ body, number }) => ({ content: [{ type: 'text', text: `#${number}: ${String(body.messages.length)}` }] }));
    const message = await client.messages.create(ask);
    expect(message.content).toEqual([{ type: 'text', text: '#1: 1' }]);
  });

  it('an empty queue: HTTP 500 naming the request, and an error the test can check', async () => {
    const response = await post(ask);
    expect(response.status).toBe(500);
    expect(response.headers.get('x-should-retry')).toBe('false');
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('script has no response for request #1');
    expect(server.errors).toHaveLength(1);
    expect(ScriptMismatchError.isInstance(server.errors[0])).toBe(true);
  });

  it('a rate-limit fault: 429 with retry-after and the real body shape', async () => {
    server.enqueue({ fault: 'rate-limit', retryAfterSeconds: 7 });
    const response = await post(ask);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' }, request_id: expect.stringMatching(/^req_/) });
  });

  it('a stream-error fault: HTTP 200, some events, an error frame, no message_stop', async () => {
    server.enqueue({ fault: 'stream-error', after: 2 });
    const response = await post({ ...ask, stream: true });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.match(/^event: /gm)).toHaveLength(3);
    expect(text).toContain('event: error\ndata: {"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"}');
    expect(text).not.toContain('message_stop');
  });

  it('endAfter holds the end of a streamed body after message_stop until it settles (fulfilled or rejected); a JSON answer ignores it', async () => {
    for (const settle of ['resolve', 'reject'] as const) {
      let done!: () => void;
      const end = new Promise<void>((resolve, reject) => (done = settle === 'resolve' ? resolve : () => reject(new Error('no matter'))));
      server.enqueue({ content: [{ type: 'text', text: 'held' }], endAfter: end });
      const response = await post({ ...ask, stream: true });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (!text.includes('event: message_stop')) text += decoder.decode((await reader.read()).value, { stream: true });
      const rest = reader.read(); // the end: held until `end` settles
      const raced = await Promise.race([rest.then(() => 'ended'), new Promise((resolve) => setImmediate(() => setImmediate(() => resolve('held'))))]);
      expect(raced).toBe('held');
      done();
      expect((await rest).done).toBe(true);
    }
    server.enqueue({ content: [{ type: 'text', text: 'json' }], endAfter: new Promise(() => {}) });
    expect((await client.messages.create(ask)).content).toMatchObject([{ type: 'text', text: 'json' }]);
  });

  it('counts the TCP connections it accepted: one per kept-alive client, one per request for a client that closes them', async () => {
    server.enqueue({ content: [{ type: 'text', text: 'one' }] }, { content: [{ type: 'text', text: 'two' }] }, { content: [{ type: 'text', text: 'three' }] });
    await client.messages.create(ask);
    await new Promise<void>((resolve) => setImmediate(resolve)); // Node's fetch frees a connection a setImmediate after its response
    await client.messages.create(ask);
    expect(server.connections).toBe(1);
    // A client without keep-alive: a connection of its own.
    await new Promise<void>((resolve, reject) => {
      const request = httpRequest(`${server.url}/v1/messages`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (response) => response.resume().on('end', resolve));
      request.on('error', reject);
      request.end(JSON.stringify(ask));
    });
    expect(server.connections).toBe(2);
  });

  it('answers 404 outside /v1/messages', async () => {
    const response = await fetch(`${server.url}/v1/models`);
    expect(response.status).toBe(404);
    expect(server.requests).toHaveLength(0);
  });
});
