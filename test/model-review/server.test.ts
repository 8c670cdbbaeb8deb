import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingResponses } from '../../src/testing/messages-server/recording-responses.js';
import { startMessagesServer, type MessagesServer } from '../../src/testing/messages-server/index.js';
import { validateMessagesRequest } from '../../src/testing/messages-server/validate-messages-request.js';

let server: MessagesServer;
beforeEach(async () => {
  server = await startMessagesServer();
});
afterEach(() => server.close());

const post = (body: unknown) =>
  fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const base = { model: 'claude-test', max_tokens: 100 };
const ok = { content: [{ type: 'text' as const, text: 'ok' }] };

const sse = (events: unknown[]) => events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
const msgStart = (id: string) => ({ type: 'message_start', message: { id, type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } } });
const text = (t: string) => [
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } },
  { type: 'content_block_stop', index: 0 },
];
const finish = [{ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }, { type: 'message_stop' }];

describe('review: recordings with several responses', () => {
  it('[DEFECT] a response cut off by an error frame, followed by the retried response, is two responses (split on message_start too)', () => {
    const recording =
      sse([msgStart('msg_1'), ...text('partial')]) +
      'event: error\ndata: {"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"}}\n\n' +
      sse([msgStart('msg_2'), ...text('full'), ...finish]);
    const responses = recordingResponses(recording);
    expect(responses).toHaveLength(2);
  });

  it('OK: JSON-lines and SSE recordings with two complete responses answer two requests', () => {
    const lines = [msgStart('a'), ...text('1'), ...finish, msgStart('b'), ...text('2'), ...finish].map((e) => JSON.stringify(e)).join('\n');
    expect(recordingResponses(lines)).toHaveLength(2);
  });
});

describe('review: validator gaps vs the real API (HTTP 400 expected)', () => {
  const cases: Array<[string, unknown[]]> = [
    ['empty text block ("messages: text content blocks must be non-empty")', [{ role: 'user', content: [{ type: 'text', text: '' }] }]],
    ['whitespace-only text ("text content blocks must contain non-whitespace text")', [{ role: 'user', content: [{ type: 'text', text: '  \n' }] }]],
    [
      'tool_result not at the start of the user message ("Did not find 1 tool_result block(s) at the beginning of this message")',
      [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'R', input: {} }] },
        { role: 'user', content: [{ type: 'text', text: 'here:' }, { type: 'tool_result', tool_use_id: 't1', content: 'r' }] },
      ],
    ],
    [
      'thinking block sent back without signature ("thinking.signature: Field required")',
      [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm' }, { type: 'text', text: 'a' }] },
        { role: 'user', content: 'more' },
      ],
    ],
    [
      'final assistant prefill ending in whitespace ("final assistant content cannot end with trailing whitespace")',
      [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: 'Sure, ' },
      ],
    ],
    ['a message role other than user/assistant', [{ role: 'user', content: 'a' }, { role: 'system', content: 'b' }, { role: 'user', content: 'c' }]],
    ['an image block without source', [{ role: 'user', content: [{ type: 'image' }] }]],
    [
      'two tool_result blocks for the same tool_use id',
      [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'R', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'r' }, { type: 'tool_result', tool_use_id: 't1', content: 'r' }] },
      ],
    ],
  ];
  for (const [name, messages] of cases) {
    it(`[GAP] ${name}`, () => {
      expect(validateMessagesRequest(messages)).toBeTypeOf('string');
    });
  }

  it('[GAP] more than 4 cache_control blocks → 400 "A maximum of 4 blocks with cache_control may be provided. Found 5."', async () => {
    server.enqueue(ok);
    const cc = { type: 'ephemeral' };
    const response = await post({
      ...base,
      system: [1, 2, 3, 4].map((n) => ({ type: 'text', text: `s${n}`, cache_control: cc })),
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: cc }] }],
    });
    expect(response.status).toBe(400);
  });

  it('[GAP] cache_control on a thinking block → 400', async () => {
    server.enqueue(ok);
    const response = await post({
      ...base,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'x', signature: 's', cache_control: { type: 'ephemeral' } }] },
      ],
    });
    expect(response.status).toBe(400);
  });

  it('[GAP] thinking with temperature 0.5 → 400 "temperature may only be set to 1 when thinking is enabled"', async () => {
    server.enqueue(ok);
    const response = await post({ ...base, max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 2048 }, temperature: 0.5, messages: [{ role: 'user', content: 'x' }] });
    expect(response.status).toBe(400);
  });

  it('[GAP] thinking budget_tokens >= max_tokens → 400', async () => {
    server.enqueue(ok);
    const response = await post({ ...base, max_tokens: 1000, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: [{ role: 'user', content: 'x' }] });
    expect(response.status).toBe(400);
  });

  it('[GAP] missing max_tokens / model → 400', async () => {
    server.enqueue(ok);
    const response = await post({ messages: [{ role: 'user', content: 'x' }] });
    expect(response.status).toBe(400);
  });

  it('[GAP] a tool with an input_schema without "type": "object" → 400 (fixture anthropic-root-union-tool-schema-error.json)', async () => {
    server.enqueue(ok);
    const response = await post({
      ...base,
      tools: [{ name: 'x', input_schema: { anyOf: [{ type: 'object' }] } }],
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(response.status).toBe(400);
  });

  it('OK: a final assistant prefill is accepted (the API allows it) and an empty final assistant too', () => {
    expect(validateMessagesRequest([{ role: 'user', content: 'a' }, { role: 'assistant', content: 'Sure' }])).toBeUndefined();
    expect(validateMessagesRequest([{ role: 'user', content: 'a' }, { role: 'assistant', content: [] }])).toBeUndefined();
  });

  it('OK: a tool_result answering a server_tool_use is rejected with the real wording (fixture 17366)', () => {
    const problem = validateMessagesRequest([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }, { type: 'tool_use', id: 't', name: 'c', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'srvtoolu_1', content: 'x' }, { type: 'tool_result', tool_use_id: 't', content: 'y' }] },
    ]);
    expect(problem).toMatch(/^messages\.2\.content\.0: unexpected `tool_use_id`/);
  });

  it('OK: 400 body shape matches the real one', async () => {
    const response = await post({ ...base, messages: [{ role: 'assistant', content: 'x' }] });
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['type', 'error', 'request_id']);
    expect(body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(response.headers.get('request-id')).toBe(body.request_id);
  });
});

describe('review: fault edge cases', () => {
  it('[LOW] stream-error with after larger than the turn still ends on the error frame, never after message_stop', async () => {
    server.enqueue({ fault: 'stream-error', after: 1000 });
    const response = await post({ ...base, stream: true, messages: [{ role: 'user', content: 'x' }] });
    const wire = await response.text();
    expect(wire).toContain('event: error');
    expect(wire).not.toContain('message_stop');
  });

  it('[LOW] a request with malformed JSON is recorded or reported (server.errors) rather than silently skipped', async () => {
    const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{oops' });
    expect(response.status).toBe(400);
    expect(server.requests.length + server.errors.length).toBeGreaterThan(0);
  });
});

describe('review: non-streaming answers from recordings', () => {
  it('[LOW] a recording that ends in a mid-stream error answers a non-streaming request with an HTTP error, not a 200 partial message', async () => {
    server.enqueue({
      recording:
        sse([msgStart('msg_1'), ...text('partial')]) +
        'event: error\ndata: {"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"}}\n\n',
    });
    const response = await post({ ...base, messages: [{ role: 'user', content: 'x' }] });
    expect(response.status).not.toBe(200);
  });
});
