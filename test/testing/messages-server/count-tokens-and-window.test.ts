import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';
import { fixturePath, hasFixtures } from '../../fixtures-dir.js';

// The real bodies, when the recordings are there (test/fixtures-dir.ts: skipped without them, required under CI).
const haveFixtures = hasFixtures;

let server: MessagesServer;
afterEach(() => server.close());

const ask = { model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user' as const, content: 'Hi there, a longer prompt.' }] };
const post = (route: string, body: unknown) =>
  fetch(`${server.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('POST /v1/messages/count_tokens', () => {
  it('answers { input_tokens } through the real SDK, consuming no scripted answer', async () => {
    server = await startMessagesServer({ responses: [{ content: [{ type: 'text', text: 'kept' }] }] });
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const { max_tokens: _unused, ...countable } = ask;
    const small = await client.messages.countTokens(countable);
    const larger = await client.messages.countTokens({ ...countable, system: 'A system prompt adds tokens too.' });
    expect(small.input_tokens).toBeGreaterThan(0);
    expect(larger.input_tokens).toBeGreaterThan(small.input_tokens);
    expect(server.pendingResponses).toBe(1);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses max_tokens, stream and an invalid conversation like the API', async () => {
    server = await startMessagesServer();
    const refused = await post('/v1/messages/count_tokens', ask);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toEqual({ type: 'invalid_request_error', message: 'max_tokens: Extra inputs are not permitted' });
    const { max_tokens: _unused, ...countable } = ask;
    const streaming = await post('/v1/messages/count_tokens', { ...countable, stream: true });
    expect((await streaming.json()).error.message).toBe('stream: Extra inputs are not permitted');
    const orphan = await post('/v1/messages/count_tokens', {
      model: 'm',
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'r' }] }],
    });
    expect(orphan.status).toBe(400);
    expect((await orphan.json()).error.message).toContain('unexpected `tool_use_id`');
  });
});

describe('the context window', () => {
  it('refuses a request over the window with the real prompt-too-long body and consumes no answer', async () => {
    server = await startMessagesServer({ contextWindow: (model) => (model === 'tiny' ? 5 : undefined), responses: [{ content: [{ type: 'text', text: 'fits' }] }] });
    const refused = await post('/v1/messages', { ...ask, model: 'tiny' });
    expect(refused.status).toBe(400);
    const body = await refused.json();
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/^prompt is too long: \d+ tokens > 5 maximum$/);
    expect(refused.headers.get('request-id')).toBe(body.request_id);
    expect(server.pendingResponses).toBe(1);
    // Another model has no limit here; the answer is still there for it.
    expect((await post('/v1/messages', ask)).status).toBe(200);
  });

  it('a request exactly at the window passes; one token more is refused', async () => {
    server = await startMessagesServer();
    const { max_tokens: _unused, ...countable } = ask;
    const tokens = (await (await post('/v1/messages/count_tokens', countable)).json()).input_tokens as number;
    await server.close();
    server = await startMessagesServer({ contextWindow: tokens, responses: [{ content: [{ type: 'text', text: 'ok' }] }] });
    expect((await post('/v1/messages', ask)).status).toBe(200);
    await server.close();
    server = await startMessagesServer({ contextWindow: tokens - 1 });
    expect((await post('/v1/messages', ask)).status).toBe(400);
  });

  it.skipIf(!haveFixtures)('has the shape of the real body transcribed from an issue thread', async () => {
    const { errors } = JSON.parse(readFileSync(fixturePath('anthropic-errors', 'error-bodies-from-issues.json'), 'utf8')) as { errors: Array<{ body: string; status: number }> };
    const real = errors.find((entry) => entry.body.includes('prompt is too long'))!;
    const realBody = JSON.parse(real.body);
    server = await startMessagesServer({ contextWindow: 5 });
    const response = await post('/v1/messages', ask);
    expect(response.status).toBe(real.status);
    const ours = await response.json();
    const shape = (value: unknown): unknown =>
      value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([key, child]) => [key, shape(child)])) : typeof value;
    expect(shape(ours)).toEqual(shape(realBody));
    const pattern = /^prompt is too long: \d+ tokens > \d+ maximum$/;
    expect(realBody.error.message).toMatch(pattern);
    expect(ours.error.message).toMatch(pattern);
  });
});
