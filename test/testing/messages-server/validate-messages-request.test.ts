import { readFileSync } from 'node:fs';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../../src/model/messages.js';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';

const errorsRoot = path.resolve(import.meta.dirname, '../../..', '../shared/fixtures/anthropic-errors');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(errorsRoot, file), 'utf8')) as Record<string, unknown>;

let server: MessagesServer;
let client: Anthropic;
beforeAll(async () => {
  server = await startMessagesServer();
  client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
});
afterAll(() => server.close());

async function rejection(messages: Message[]): Promise<InstanceType<typeof Anthropic.APIError>> {
  const before = server.pendingResponses;
  try {
    await client.messages.create({ model: 'claude-test', max_tokens: 10, messages: messages as Anthropic.MessageParam[] });
  } catch (error) {
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(server.pendingResponses).toBe(before); // a rejected request consumes no answer
    return error as InstanceType<typeof Anthropic.APIError>;
  }
  throw new Error('expected a 400');
}

const toolUse = (id: string) => ({ type: 'tool_use' as const, id, name: 'Read', input: {} });
const toolResult = (id: string) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'ok' });

describe('messages server validation (HTTP 400 like the real API)', () => {
  it('a tool_use without a tool_result in the next message: the real body, ids comma-separated', async () => {
    const error = await rejection([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [toolUse('toolu_a'), toolUse('toolu_b')] },
      { role: 'user', content: [toolResult('toolu_a'), { type: 'text', text: 'and?' }] },
    ]);
    const real = readJson('anthropic-parallel-provider-client-tools.error.json') as { error: { message: string } };
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(error.apiMessage).toBe(real.error.message.replace('toolu_issue8112_custom', 'toolu_b'));
    expect(error.requestID).toMatch(/^req_/);
  });

  it('a trailing assistant tool_use with nothing after it', async () => {
    const error = await rejection([{ role: 'user', content: 'go' }, { role: 'assistant', content: [toolUse('toolu_c')] }]);
    expect(error.apiMessage).toContain('messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_c.');
  });

  it('an orphan tool_result: the wording of the real 400', async () => {
    const fixture = readJson('anthropic-issue-17366-orphan-tool-result.1.json') as {
      request: { messages: Message[] };
      response: { body: { error: { message: string } } };
    };
    const error = await rejection(fixture.request.messages);
    expect(error.apiMessage).toBe(fixture.response.body.error.message);
  });

  it('a tool_result answering a tool_use two messages back', async () => {
    const error = await rejection([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [toolUse('toolu_d')] },
      { role: 'user', content: [toolResult('toolu_d')] },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
      { role: 'user', content: [toolResult('toolu_d')] },
    ]);
    expect(error.apiMessage).toMatch(/^messages\.4\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_d\./);
  });

  it('two consecutive messages with the same role', async () => {
    const error = await rejection([
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
    ]);
    expect(error.apiMessage).toBe('messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row');
  });

  it('a first message that is not from the user', async () => {
    const error = await rejection([{ role: 'assistant', content: [{ type: 'text', text: 'hi' }] }]);
    expect(error.apiMessage).toBe('messages: first message must use the "user" role');
  });

  it('empty content (string or array), except a final assistant prefill', async () => {
    expect((await rejection([{ role: 'user', content: '' }])).apiMessage).toBe(
      'messages.0: all messages must have non-empty content except for the optional final assistant message',
    );
    expect((await rejection([{ role: 'user', content: [] }])).apiMessage).toMatch(/^messages\.0: all messages/);
    server.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    const prefill: Message[] = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: '' as never }];
    await expect(client.messages.create({ model: 'm', max_tokens: 5, messages: prefill as Anthropic.MessageParam[] })).resolves.toBeTruthy();
  });

  it('validate: false lets anything through', async () => {
    const lenient = await startMessagesServer({ validate: false, responses: [{ content: [{ type: 'text', text: 'ok' }] }] });
    const lenientClient = new Anthropic({ apiKey: 'k', baseURL: lenient.url, maxRetries: 0 });
    const message = await lenientClient.messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'assistant', content: 'x' }] });
    expect(message.content).toEqual([{ type: 'text', text: 'ok' }]);
    await lenient.close();
  });
});
