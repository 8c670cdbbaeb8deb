import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';
import { validateMessagesRequestBody } from '../../../src/testing/index.js';
import { fixturePath, hasFixtures } from '../../fixtures-dir.js';

const realMessage = (file: string) => (JSON.parse(readFileSync(fixturePath('anthropic-errors', file), 'utf8')) as { error: { message: string } }).error.message;

let server: MessagesServer;
beforeAll(async () => {
  server = await startMessagesServer();
});
afterAll(() => server.close());

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const base = { model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] };
const cc = { type: 'ephemeral' };
const thinkingDocs = 'Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

/** Posts `body` and expects the real API's 400: status, body shape, request id header, no answer consumed. */
async function rejection(body: unknown, headers?: Record<string, string>): Promise<string> {
  const before = server.pendingResponses;
  const response = await post(body, headers);
  expect(response.status).toBe(400);
  const json = (await response.json()) as { type: string; error: { type: string; message: string }; request_id: string };
  expect(Object.keys(json)).toEqual(['type', 'error', 'request_id']);
  expect(json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  expect(response.headers.get('request-id')).toBe(json.request_id);
  expect(server.pendingResponses).toBe(before);
  return json.error.message;
}

async function accepted(body: unknown, headers?: Record<string, string>): Promise<void> {
  server.enqueue({ content: [{ type: 'text', text: 'ok' }] });
  expect((await post(body, headers)).status).toBe(200);
}

describe('messages server request-level validation (HTTP 400 like the real API)', () => {
  it('more than 4 cache_control blocks across system, tools and messages, nested tool_result content included', async () => {
    const system = [1, 2, 3, 4].map((n) => ({ type: 'text', text: `s${n}`, cache_control: cc }));
    expect(await rejection({ ...base, system, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: cc }] }] })).toBe(
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    );
    const nested = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'R', input: {}, cache_control: cc }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'r', cache_control: cc }], cache_control: cc }] },
    ];
    const tools = [{ name: 'R', input_schema: { type: 'object' }, cache_control: cc }];
    expect(await rejection({ ...base, system: system.slice(0, 2), tools, messages: nested })).toBe(
      'A maximum of 4 blocks with cache_control may be provided. Found 6.',
    );
    await accepted({ ...base, system, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: null }] }] });
  });

  it('cache_control on an empty system text block', async () => {
    expect(await rejection({ ...base, system: [{ type: 'text', text: 'a' }, { type: 'text', text: '', cache_control: cc }] })).toBe(
      'system.1.text: cache_control cannot be set for empty text blocks',
    );
  });

  it('cache_control on a thinking block (messages-level rules run on the server too)', async () => {
    const messages = [{ role: 'user', content: 'go' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 'x', signature: 's', cache_control: cc }] }];
    expect(await rejection({ ...base, messages })).toBe('messages.1.content.0.thinking.cache_control: Extra inputs are not permitted');
  });

  it('thinking with a temperature other than 1; temperature 1 is accepted', async () => {
    const thinking = { type: 'enabled', budget_tokens: 2048 };
    expect(await rejection({ ...base, max_tokens: 4000, thinking, temperature: 0.5 })).toBe(
      `\`temperature\` may only be set to 1 when thinking is enabled. ${thinkingDocs}#important-considerations-when-using-extended-thinking`,
    );
    await accepted({ ...base, max_tokens: 4000, thinking, temperature: 1 });
    await accepted({ ...base, thinking: { type: 'disabled' }, temperature: 0.5 });
  });

  it('thinking.budget_tokens not below max_tokens, unless an interleaved-thinking beta lifts the limit', async () => {
    const body = { ...base, max_tokens: 1000, thinking: { type: 'enabled', budget_tokens: 2048 } };
    expect(await rejection(body)).toBe(`\`max_tokens\` must be greater than \`thinking.budget_tokens\`. ${thinkingDocs}#max-tokens-and-context-window-size`);
    expect(await rejection({ ...body, max_tokens: 2048 })).toMatch(/^`max_tokens` must be greater/);
    await accepted(body, { 'anthropic-beta': 'fine-grained-tool-streaming-2025-05-14, interleaved-thinking-2025-05-14' });
  });

  it('missing model or max_tokens', async () => {
    expect(await rejection({ messages: base.messages })).toBe('model: Field required');
    expect(await rejection({ model: 'm', messages: base.messages })).toBe('max_tokens: Field required');
  });

  it.skipIf(!hasFixtures)('a custom tool whose input_schema lacks type "object": the real wording', async () => {
    const union = { name: 'x', input_schema: { anyOf: [{ type: 'object' }] } };
    expect(await rejection({ ...base, tools: [union] })).toBe(realMessage('anthropic-root-union-tool-schema-error.json'));
    expect(await rejection({ ...base, tools: [{ name: 'ok', input_schema: { type: 'object' } }, { name: 'y', input_schema: { type: 'array' } }] })).toBe(
      "tools.1.custom.input_schema.type: Input should be 'object'",
    );
    expect(await rejection({ ...base, tools: [{ name: 'z' }] })).toBe('tools.0.custom.input_schema: Field required');
    await accepted({ ...base, tools: [{ type: 'web_search_20250305', name: 'web_search' }, { type: 'custom', name: 'c', input_schema: { type: 'object' } }] });
  });

  it('validate: false disables every rule', async () => {
    const lenient = await startMessagesServer({ validate: false, responses: [{ content: [{ type: 'text', text: 'ok' }] }] });
    const response = await fetch(`${lenient.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }], thinking: { type: 'enabled', budget_tokens: 5 }, temperature: 0 }),
    });
    expect(response.status).toBe(200);
    await lenient.close();
  });

  it('tool_use or tool_result blocks in a request without tools (none, or an empty list); with any tool they are accepted', async () => {
    const toolBlocks = [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'StructuredOutput', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Answer received.' }, { type: 'text', text: 'Thanks.' }] },
    ];
    const message = 'Requests which include `tool_use` or `tool_result` blocks must define tools.';
    expect(await rejection({ ...base, messages: toolBlocks })).toBe(message);
    expect(await rejection({ ...base, tools: [], messages: toolBlocks })).toBe(message);
    await accepted({ ...base, tools: [{ name: 'other', description: 'Other.', input_schema: { type: 'object' } }], messages: toolBlocks });
    await accepted({ ...base, tools: [] });
  });

  it('a custom tool whose input_schema has oneOf, anyOf or allOf at the top level; nested ones are accepted', async () => {
    for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
      const tool = { name: 'pick', description: 'Picks.', input_schema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, [keyword]: [{ required: ['a'] }, { required: ['b'] }] } };
      expect(await rejection({ ...base, tools: [{ name: 'fine', description: 'Fine.', input_schema: { type: 'object' } }, tool] })).toBe(
        'tools.1.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level',
      );
    }
    await accepted({ ...base, tools: [{ name: 'nested', description: 'Nested.', input_schema: { type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'number' }] } } } }] });
  });

  it('validateMessagesRequestBody is usable on its own', () => {
    expect(validateMessagesRequestBody(base)).toBeUndefined();
    expect(validateMessagesRequestBody([])).toBe('Input should be a valid dictionary');
    expect(validateMessagesRequestBody({ ...base, max_tokens: 10, thinking: { type: 'enabled', budget_tokens: 10 } }, { betas: ['interleaved-thinking-2025-05-14'] })).toBeUndefined();
  });
});
