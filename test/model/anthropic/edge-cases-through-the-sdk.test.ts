import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/errors/model-error.js';
import { anthropicModel } from '../../../src/model/anthropic/anthropic-model.js';
import type { AnthropicModelOptions } from '../../../src/model/anthropic/anthropic-model-options.js';
import type { Message } from '../../../src/model/messages.js';
import type { ModelStreamEvent } from '../../../src/model/model.js';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';

let server: MessagesServer;
beforeEach(async () => {
  server = await startMessagesServer();
});
afterEach(() => server.close());

const hello: Message[] = [{ role: 'user', content: 'Hello' }];
const okTurn = { content: [{ type: 'text' as const, text: 'Hi there, how can I help?' }] };
const model = (options: Partial<AnthropicModelOptions> = {}) =>
  anthropicModel({ model: 'claude-test', apiKey: 'k', baseURL: server.url, maxRetries: 0, ...options });

async function run(options: Partial<AnthropicModelOptions> = {}, signal?: AbortSignal, onEvent?: (e: ModelStreamEvent) => void) {
  const events: ModelStreamEvent[] = [];
  let error: unknown;
  try {
    for await (const event of model(options).stream({ system: [], tools: [], messages: hello, ...(signal ? { signal } : {}) })) {
      events.push(event);
      onEvent?.(event);
    }
  } catch (caught) {
    error = caught;
  }
  return { events, error };
}

describe('abort, drop, long streams end to end', () => {
  it('abort while withResponse() waits for headers → aborted', async () => {
    let release!: () => void;
    server.enqueue(() => new Promise((resolve) => (release = () => resolve(okTurn))));
    const controller = new AbortController();
    const pending = run({}, controller.signal);
    while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const { error } = await pending;
    release();
    expect(ModelError.isInstance(error) && (error as ModelError).errorType).toBe('aborted');
  });

  it('abort during SDK retry backoff (429 retry-after 30s) → aborted', async () => {
    server.enqueue({ fault: 'rate-limit', retryAfterSeconds: 30 }, okTurn);
    const controller = new AbortController();
    const pending = run({ maxRetries: 2 }, controller.signal);
    // The SDK now waits out the retry-after; aborting must end that wait.
    while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const { error } = await pending;
    expect(ModelError.isInstance(error) && (error as ModelError).errorType).toBe('aborted');
  });

  it('abort during iteration (after first delta, small buffered turn) → aborted, not a full response', async () => {
    server.enqueue({ content: [{ type: 'text', text: 'x'.repeat(300) }, { type: 'text', text: 'y'.repeat(300) }] });
    const controller = new AbortController();
    const { error } = await run({}, controller.signal, (e) => {
      if (e.type === 'text-delta') controller.abort();
    });
    expect(error).toMatchObject({ errorType: 'aborted', retryable: false });
  });

  it('drop-connection with after: 0 → retryable ModelError', async () => {
    server.enqueue({ fault: 'drop-connection', after: 0 });
    const { error } = await run();
    expect(error).toMatchObject({ retryable: true });
  });

  it('connection dropped right AFTER message_stop (before the chunked terminator) still yields the response', async () => {
    server.enqueue({ fault: 'drop-connection', after: 1000, turn: okTurn });
    const { events, error } = await run();
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'response', response: { stopReason: 'end_turn' } });
  });

  it('1 MB of text in 100k SSE frames over loopback through the real SDK', async () => {
    const frames: string[] = [
      `event: message_start\ndata: {"type":"message_start","message":{"id":"msg_big","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}`,
      `event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
    ];
    for (let i = 0; i < 100_000; i++) frames.push(`event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"abcdefghij"}}`);
    frames.push(
      `event: content_block_stop\ndata: {"type":"content_block_stop","index":0}`,
      `event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":250000}}`,
      `event: message_stop\ndata: {"type":"message_stop"}`,
    );
    server.enqueue({ recording: frames.join('\n\n') + '\n\n' });
    let deltas = 0;
    const { events, error } = await run({}, undefined, (e) => {
      if (e.type === 'text-delta') deltas++;
    });
    expect(error).toBeUndefined();
    expect(deltas).toBe(100_000);
    const response = events.at(-1) as Extract<ModelStreamEvent, { type: 'response' }>;
    expect((response.response.message.content[0] as { text: string }).text.length).toBe(1_000_000);
  }, 60_000);
});

describe('a stream that numbers its content blocks wrongly', () => {
  const sse = (events: Array<{ type: string; [key: string]: unknown }>) => events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
  const start = { type: 'message_start', message: { id: 'msg_x', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } };
  const end = [{ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } }, { type: 'message_stop' }];

  it.each([
    ['a repeated index', 0],
    ['a skipped index', 2],
  ])('%s: the answer is refused with a retryable ModelError, not two blocks mixed together', async (_name, second) => {
    server.enqueue({
      recording: sse([
        start,
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'content_block_start', index: second, content_block: { type: 'tool_use', id: 'toolu_1', name: 'echo', input: {} } },
        { type: 'content_block_delta', index: second, delta: { type: 'input_json_delta', partial_json: '{"text":"a"}' } },
        { type: 'content_block_stop', index: second },
        ...end,
      ]),
    });
    const { error } = await run();
    expect(ModelError.isInstance(error)).toBe(true);
    expect((error as ModelError).retryable).toBe(true);
    expect((error as Error).message).toMatch(new RegExp(`started content block ${second} where block 1 comes next`));
  });
});

