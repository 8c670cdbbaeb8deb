import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../../src/model/messages.js';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';
import { validateMessagesRequest } from '../../../src/testing/index.js';
import { fixturePath, hasFixtures } from '../../fixtures-dir.js';

const readJson = (file: string) => JSON.parse(readFileSync(fixturePath('anthropic-errors', file), 'utf8')) as Record<string, unknown>;

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
  it.skipIf(!hasFixtures)('a tool_use without a tool_result in the next message: the real body, ids comma-separated', async () => {
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

  it.skipIf(!hasFixtures)('an orphan tool_result: the wording of the real 400', async () => {
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

describe('validateMessagesRequest: block and conversation rules of the real API', () => {
  const go = { role: 'user', content: 'go' };
  const cases: Array<[string, unknown[], string | RegExp]> = [
    ['an empty text block', [{ role: 'user', content: [{ type: 'text', text: '' }] }], 'messages: text content blocks must be non-empty'],
    [
      'whitespace-only text, as a block or as string content',
      [{ role: 'user', content: [{ type: 'text', text: '  \n' }] }],
      'messages: text content blocks must contain non-whitespace text',
    ],
    ['whitespace-only string content', [{ role: 'user', content: ' \t' }], 'messages: text content blocks must contain non-whitespace text'],
    [
      'a tool_result after another block',
      [go, { role: 'assistant', content: [toolUse('t1')] }, { role: 'user', content: [{ type: 'text', text: 'here:' }, toolResult('t1')] }],
      'messages.2: Did not find 1 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.',
    ],
    [
      'a thinking block without its signature',
      [go, { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm' }, { type: 'text', text: 'a' }] }, { role: 'user', content: 'more' }],
      'messages.1.content.0.thinking.signature: Field required',
    ],
    [
      'a final assistant prefill ending in whitespace',
      [go, { role: 'assistant', content: 'Sure, ' }],
      'messages: final assistant content cannot end with trailing whitespace',
    ],
    [
      'a final assistant whose last text block ends in a newline',
      [go, { role: 'assistant', content: [{ type: 'text', text: 'Sure\n' }] }],
      'messages: final assistant content cannot end with trailing whitespace',
    ],
    ['a role other than user/assistant', [{ role: 'user', content: 'a' }, { role: 'system', content: 'b' }, { role: 'user', content: 'c' }], "messages.1.role: Input should be 'user' or 'assistant'"],
    ['an image block without source', [{ role: 'user', content: [{ type: 'image' }] }], 'messages.0.content.0.image.source: Field required'],
    [
      'two tool_result blocks for one tool_use',
      [go, { role: 'assistant', content: [toolUse('t1')] }, { role: 'user', content: [toolResult('t1'), toolResult('t1')] }],
      /^messages\.2\.content\.1: each tool_use must have a single result\. Found multiple `tool_result` blocks with id: t1/,
    ],
    ['a field of a message besides role and content', [{ role: 'user', content: 'hi', name: 'Init' }], 'messages.0.name: Extra inputs are not permitted'],
    ['cache_control on a message (it goes on a block)', [go, { role: 'assistant', content: 'ok', cache_control: { type: 'ephemeral' } }], 'messages.1.cache_control: Extra inputs are not permitted'],
    [
      'cache_control on a thinking block',
      [go, { role: 'assistant', content: [{ type: 'thinking', thinking: 'x', signature: 's', cache_control: { type: 'ephemeral' } }] }],
      'messages.1.content.0.thinking.cache_control: Extra inputs are not permitted',
    ],
    [
      'cache_control on a redacted thinking block',
      [go, { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'x', cache_control: { type: 'ephemeral' } }] }],
      'messages.1.content.0.redacted_thinking.cache_control: Extra inputs are not permitted',
    ],
    [
      'cache_control on an empty text block',
      [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'u' } }, { type: 'text', text: '', cache_control: { type: 'ephemeral' } }] }],
      'messages.0.content.1.text: cache_control cannot be set for empty text blocks',
    ],
  ];
  for (const [name, messages, expected] of cases) {
    it(`rejects ${name}`, () => {
      const problem = validateMessagesRequest(messages);
      if (typeof expected === 'string') expect(problem).toBe(expected);
      else expect(problem).toMatch(expected);
    });
  }

  it('reports a schema problem before a conversation rule earlier in the list, as the API does', () => {
    expect(validateMessagesRequest([{ role: 'user', content: 'a' }, { role: 'user', content: [{ type: 'image' }] }])).toBe(
      'messages.1.content.0.image.source: Field required',
    );
  });

  it('still names unanswered tool_use ids first when a tool_result is missing altogether', () => {
    expect(validateMessagesRequest([go, { role: 'assistant', content: [toolUse('t1'), toolUse('t2')] }, { role: 'user', content: [toolResult('t1')] }])).toMatch(
      /^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: t2\./,
    );
  });

  it.skipIf(!hasFixtures)('accepts what the real API accepts: prefills, an empty final assistant, results first then text, server tool blocks', () => {
    expect(validateMessagesRequest([go, { role: 'assistant', content: 'Sure' }])).toBeUndefined();
    expect(validateMessagesRequest([go, { role: 'assistant', content: [] }])).toBeUndefined();
    expect(validateMessagesRequest([go, { role: 'assistant', content: '' }])).toBeUndefined();
    expect(validateMessagesRequest([go, { role: 'assistant', content: [toolUse('t1'), toolUse('t2')] }, { role: 'user', content: [toolResult('t2'), toolResult('t1'), { type: 'text', text: 'and?' }] }])).toBeUndefined();
    const fixture = readJson('anthropic-issue-17366-orphan-tool-result.1.json') as { request: { messages: Array<{ content: unknown[] }> } };
    const [first, assistant] = fixture.request.messages;
    const serverOnly = { ...assistant, content: assistant!.content.slice(0, 2) };
    expect(validateMessagesRequest([first, serverOnly])).toBeUndefined();
    expect(validateMessagesRequest([first, serverOnly, { role: 'user', content: 'thanks' }])).toBeUndefined();
  });

  it('the orphan tool_result answering a server_tool_use keeps the real wording (fixture 17366)', () => {
    const problem = validateMessagesRequest([
      go,
      { role: 'assistant', content: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }, toolUse('t')] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'srvtoolu_1', content: 'x' }, toolResult('t')] },
    ]);
    expect(problem).toMatch(/^messages\.2\.content\.0: unexpected `tool_use_id`/);
  });
});
