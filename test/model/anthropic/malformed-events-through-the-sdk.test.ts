// Events a hostile or broken stream may send through the real SDK (which parses each `data:` line
// and hands it on as it is): the adapter answers with a valid response, or fails the attempt with
// a retryable ModelError; never a bare TypeError, never a usage or stop reason of the wrong type.
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicModel, createAgent, ModelError, type ModelResponse } from 'agent-harness';
import { startMessagesServer, type MessagesServer } from 'agent-harness/testing/messages-server';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** SSE wire text; an event given as [name, raw data] is sent as it is. */
const sse = (events: Array<Record<string, unknown> | [string, string]>) =>
  events.map((event) => (Array.isArray(event) ? `event: ${event[0]}\ndata: ${event[1]}\n\n` : `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`)).join('');
const start = { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } };
const text = (value: string) => [
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: value } },
  { type: 'content_block_stop', index: 0 },
];
const end = [{ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 7 } }, { type: 'message_stop' }];
const model = () => anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'k', baseURL: server!.url, maxRetries: 0 });

async function outcome(events: Array<Record<string, unknown> | [string, string]>): Promise<ModelResponse | ModelError> {
  server = await startMessagesServer({ responses: [{ recording: sse(events) }] });
  try {
    for await (const event of model().stream({ system: [], tools: [], messages: [{ role: 'user', content: 'Hi' }] })) if (event.type === 'response') return event.response;
    throw new Error('no response');
  } catch (error) {
    if (ModelError.isInstance(error)) return error;
    throw error;
  } finally {
    await server.close();
    server = undefined;
  }
}

describe('malformed stream events, through the real client', () => {
  it.each([
    ['a message_start whose message is null', [['message_start', 'null'], ...text('Hi.'), ...end]],
    ['a message_start whose content is a string', [{ ...start, message: { ...start.message, content: 'abc' } }, ...text('Hi.'), ...end]],
    ['an event that is null', [start, ['ping', 'null'], ['content_block_delta', 'null'], ...text('Hi.'), ...end]],
    ['a content_block_delta whose delta is null', [start, ...text('Hi.').slice(0, 1), { type: 'content_block_delta', index: 0, delta: null }, ...text('Hi.').slice(1), ...end]],
    ['a message_delta whose delta is null and usage negative', [start, ...text('Hi.'), { type: 'message_delta', delta: null, usage: { output_tokens: -5, input_tokens: 'ten' } }, { type: 'message_stop' }]],
    ['a stop reason that is a number', [start, ...text('Hi.'), { type: 'message_delta', delta: { stop_reason: 5 }, usage: { output_tokens: 1e308 * 10 } }, { type: 'message_stop' }]],
  ] as Array<[string, Array<Record<string, unknown> | [string, string]>]>)('%s: a valid response', async (_name, events) => {
    const answer = await outcome(events);
    expect(answer).not.toBeInstanceOf(Error);
    const response = answer as ModelResponse;
    expect(response.message.content).toEqual([{ type: 'text', text: 'Hi.' }]);
    expect(response.stopReason === null || typeof response.stopReason === 'string').toBe(true);
    for (const count of Object.values(response.usage)) expect(Number.isFinite(count) && count >= 0).toBe(true);
  });

  it.each([
    ['a content_block_start whose block is null', [start, { type: 'content_block_start', index: 0, content_block: null }, ...end]],
    ['a content_block_start whose block has no type', [start, { type: 'content_block_start', index: 0, content_block: { text: 'x' } }, { type: 'content_block_delta', index: 0, delta: { type: 'future_delta', a: 1 } }, ...end]],
  ] as Array<[string, Array<Record<string, unknown>>]>)('%s: a retryable ModelError naming it', async (_name, events) => {
    const answer = await outcome(events);
    expect(ModelError.isInstance(answer)).toBe(true);
    expect((answer as ModelError).retryable).toBe(true);
    expect((answer as ModelError).message).toMatch(/without a block type/);
  });

  it('a delta with no text at all adds nothing (as before)', async () => {
    const answer = await outcome([start, text('Hi.')[0]!, text('Hi.')[1]!, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta' } }, text('Hi.')[2]!, ...end]);
    expect((answer as ModelResponse).message.content).toEqual([{ type: 'text', text: 'Hi.' }]);
  });

  it('an agent whose stream sends an object as text retries the turn and completes on the next answer', async () => {
    server = await startMessagesServer({
      responses: [{ recording: sse([start, text('x')[0]!, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: { a: 1 } } }, ...end]) }, { recording: sse([start, ...text('Fine.'), ...end]) }],
    });
    const result = await createAgent({ model: model(), streamRetryBackoff: false }).run('Hi').result;
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Fine.');
    expect(result.text).not.toContain('[object Object]');
  });

  it('an agent given a negative output count completes, counting none of it', async () => {
    server = await startMessagesServer({ responses: [{ recording: sse([start, ...text('Hi.'), { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: -5 } }, { type: 'message_stop' }]) }] });
    const result = await createAgent({ model: model() }).run('Hi').result;
    expect(result.status).toBe('completed');
    expect(result.usage).toMatchObject({ inputTokens: 10, outputTokens: 1 });
  });
});

describe('a delta whose text is not a string, through the real client', () => {
  const thinking = (delta: Record<string, unknown>) => [
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
    { type: 'content_block_delta', index: 0, delta },
    { type: 'content_block_stop', index: 0 },
  ];
  const tool = (delta: Record<string, unknown>) => [
    { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'echo', input: {} } },
    { type: 'content_block_delta', index: 0, delta },
    { type: 'content_block_stop', index: 0 },
  ];
  const textWith = (delta: Record<string, unknown>) => [{ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, { type: 'content_block_delta', index: 0, delta }, { type: 'content_block_stop', index: 0 }];
  it.each([
    ['text_delta.text', 'an object', textWith({ type: 'text_delta', text: { a: 1 } })],
    ['text_delta.text', 'a number', textWith({ type: 'text_delta', text: 42 })],
    ['thinking_delta.thinking', 'an array', thinking({ type: 'thinking_delta', thinking: ['x'] })],
    ['input_json_delta.partial_json', 'an object', tool({ type: 'input_json_delta', partial_json: { text: 'x' } })],
    ['input_json_delta.partial_json', 'a boolean', tool({ type: 'input_json_delta', partial_json: true })],
  ] as Array<[string, string, Array<Record<string, unknown>>]>)('%s as %s: a ModelError naming the field, never "[object Object]" in the answer', async (field, what, blocks) => {
    const answer = await outcome([start, ...blocks, ...end]);
    expect(ModelError.isInstance(answer)).toBe(true);
    const error = answer as ModelError;
    expect(error.message).toContain(field);
    expect(error.message).toContain(what);
    expect(error.message).toContain('malformed');
    expect(error.retryable).toBe(true);
  });

  it('an agent whose every attempt gets one fails the run with that error, keeping nothing of the answer', async () => {
    const bad = sse([start, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: { secret: 1 } } }, { type: 'content_block_stop', index: 0 }, ...end]);
    server = await startMessagesServer({ responses: [{ recording: bad }, { recording: bad }, { recording: bad }] });
    const agent = createAgent({ model: model(), streamRetryBackoff: false });
    const result = await agent.run('Hi').result;
    expect(result.status).toBe('error');
    expect(ModelError.isInstance(result.error)).toBe(true);
    expect(result.error!.message).toContain('text_delta.text');
    expect(JSON.stringify(agent.messages)).not.toContain('[object Object]');
  });
});

describe('a text or thinking block opened with a text that is not a string, through the real client', () => {
  it.each([
    ['text', { type: 'text', text: { a: 1 } }, 'text_delta', 'text'],
    ['thinking', { type: 'thinking', thinking: 7, signature: '' }, 'thinking_delta', 'thinking'],
  ] as Array<[string, Record<string, unknown>, string, string]>)('%s: a ModelError naming the field', async (type, block, deltaType, field) => {
    const answer = await outcome([start, { type: 'content_block_start', index: 0, content_block: block }, { type: 'content_block_delta', index: 0, delta: { type: deltaType, [field]: 'more' } }, { type: 'content_block_stop', index: 0 }, ...end]);
    expect(ModelError.isInstance(answer)).toBe(true);
    expect((answer as ModelError).message).toContain(`${type} block 0 whose ${field} is`);
  });
});
