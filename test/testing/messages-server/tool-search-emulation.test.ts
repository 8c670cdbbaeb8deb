import { afterEach, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { startMessagesServer, type MessagesServer } from 'agent-harness/testing/messages-server';
import { validateMessagesRequestBody } from 'agent-harness/testing';
import { emulateToolSearch } from '../../../src/testing/messages-server/tool-search-emulation.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const deferred = (name: string, description: string) => ({ name, description, input_schema: { type: 'object', properties: {} }, defer_loading: true });
const body = {
  model: 'claude-sonnet-4-6',
  max_tokens: 100,
  messages: [{ role: 'user' as const, content: 'hi' }],
  tools: [
    { name: 'loaded', description: 'Always there.', input_schema: { type: 'object' } },
    { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
    deferred('send_email', 'Send an email to a recipient.'),
    deferred('read_email', 'Read emails from the inbox.'),
    deferred('book_flight', 'Book a flight.'),
  ],
};

describe('the loopback server runs the tool search server tool', () => {
  it('inserts the search result after the search call, over the deferred tools only', async () => {
    const turn = await emulateToolSearch(
      { content: [{ type: 'server_tool_use', id: 'srv_1', name: 'tool_search_tool_bm25', input: { query: 'email', limit: 1 } }, { type: 'text', text: 'ok' }] },
      body,
    );
    expect(turn.content).toEqual([
      { type: 'server_tool_use', id: 'srv_1', name: 'tool_search_tool_bm25', input: { query: 'email', limit: 1 } },
      { type: 'tool_search_tool_result', tool_use_id: 'srv_1', content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'send_email' }] } },
      { type: 'text', text: 'ok' },
    ]);
    expect((await emulateToolSearch({ content: [{ type: 'server_tool_use', id: 'srv_2', name: 'tool_search_tool_bm25', input: { query: 'always there' } }] }, body)).content[1]).toMatchObject({
      content: { tool_references: [] },
    });
  });

  it('leaves a scripted result, another server tool, and a request without the search tool alone', async () => {
    const scripted = {
      content: [
        { type: 'server_tool_use', id: 'srv_1', name: 'tool_search_tool_bm25', input: { query: 'email' } },
        { type: 'tool_search_tool_result', tool_use_id: 'srv_1', content: { type: 'tool_search_tool_search_result', tool_references: [] } },
      ],
    };
    expect(await emulateToolSearch(scripted, body)).toEqual(scripted);
    const web = { content: [{ type: 'server_tool_use', id: 'srv_w', name: 'web_search', input: { query: 'x' } }] };
    expect(await emulateToolSearch(web, body)).toEqual(web);
    const regexCall = { content: [{ type: 'server_tool_use', id: 'srv_r', name: 'tool_search_tool_regex', input: { pattern: 'email' } }] };
    expect(await emulateToolSearch(regexCall, body)).toEqual(regexCall);
  });

  it('answers a bad search input with the API error block', async () => {
    const turn = await emulateToolSearch({ content: [{ type: 'server_tool_use', id: 'srv_1', name: 'tool_search_tool_bm25', input: { pattern: 'email' } }] }, body);
    expect(turn.content[1]).toMatchObject({ content: { type: 'tool_search_tool_result_error', error_code: 'invalid_tool_input' } });
  });

  it('answers a catastrophically backtracking regex with execution_time_exceeded, and keeps serving', async () => {
    // `(a+)+$` against many a's and a final "!" backtracks exponentially: on the main thread it
    // would block the server (and this test) for far longer than the match budget.
    const hostile = {
      ...body,
      tools: [{ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' }, body.tools[0], deferred('slow', `${'a'.repeat(30)}!`), deferred('send_email', 'Send an email.')],
    };
    server = await startMessagesServer({
      responses: [
        { content: [{ type: 'server_tool_use', id: 'srv_1', name: 'tool_search_tool_regex', input: { pattern: '(a+)+$' } }] },
        { content: [{ type: 'server_tool_use', id: 'srv_2', name: 'tool_search_tool_regex', input: { pattern: 'email' } }] },
      ],
    });
    const client = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const refused = await client.messages.stream(hostile as never).finalMessage();
    expect(refused.content[1]).toMatchObject({
      type: 'tool_search_tool_result',
      tool_use_id: 'srv_1',
      content: { type: 'tool_search_tool_result_error', error_code: 'execution_time_exceeded', error_message: expect.stringMatching(/\(a\+\)\+\$/) },
    });
    const found = await client.messages.stream(hostile as never).finalMessage();
    expect(found.content[1]).toMatchObject({ content: { tool_references: [{ tool_name: 'send_email' }] } });
  });

  it('streams the search result to the real SDK client', async () => {
    server = await startMessagesServer({ responses: [{ content: [{ type: 'server_tool_use', id: 'srv_1', name: 'tool_search_tool_bm25', input: { query: 'flight' } }] }] });
    const client = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const message = await client.messages.stream(body as never).finalMessage();
    expect(message.content[1]).toMatchObject({ type: 'tool_search_tool_result', content: { tool_references: [{ tool_name: 'book_flight' }] } });
  });
});

describe('tool search request validation', () => {
  it('refuses a deferred search tool, an all-deferred tool list, and an unresolved tool_reference', () => {
    expect(validateMessagesRequestBody({ ...body, tools: [{ ...body.tools[1], defer_loading: true }, body.tools[0]] })).toMatch(/tool search tool cannot have defer_loading/);
    expect(validateMessagesRequestBody({ ...body, tools: [deferred('a', 'b')] })).toMatch(/all tools cannot be deferred/);
    const messages = [
      { role: 'user', content: 'find' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'loaded', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'tool_reference', tool_name: 'no_such_tool' }] }] },
    ];
    expect(validateMessagesRequestBody({ ...body, messages })).toMatch(/tool_reference to "no_such_tool", which is not defined in tools/);
    const good = structuredClone(messages);
    (good[2]!.content as Array<{ content: Array<{ tool_name: string }> }>)[0]!.content[0]!.tool_name = 'send_email';
    expect(validateMessagesRequestBody({ ...body, messages: good })).toBeUndefined();
  });
});
