import { describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/errors/model-error.js';
import type { AnthropicStreamEvent } from '../../../src/model/anthropic/anthropic-stream-event.js';
import { isIncompleteToolInput } from '../../../src/model/incomplete-tool-input.js';
import { streamAnthropicTurn } from '../../../src/model/anthropic/stream-anthropic-turn.js';
import type { ModelResponse, ModelStreamEvent } from '../../../src/model/model.js';

async function* from(events: unknown[]): AsyncGenerator<AnthropicStreamEvent> {
  for (const event of events) yield event as AnthropicStreamEvent;
}

async function collect(events: unknown[]): Promise<{ events: ModelStreamEvent[]; response: ModelResponse }> {
  const out: ModelStreamEvent[] = [];
  for await (const event of streamAnthropicTurn(from(events))) out.push(event);
  const last = out.at(-1);
  if (last?.type !== 'response') throw new Error('no response');
  return { events: out, response: last.response };
}

const start = (usage: Record<string, unknown> = { input_tokens: 10, output_tokens: 3 }) => ({
  type: 'message_start',
  message: { id: 'msg_1', model: 'claude-test', content: [], stop_reason: null, usage },
});
const stop = (stopReason: string, usage: Record<string, unknown> = { output_tokens: 20 }) => [
  { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage },
  { type: 'message_stop' },
];
const toolStart = (index: number, id: string) => ({
  type: 'content_block_start',
  index,
  content_block: { type: 'tool_use', id, name: 'Read', input: {} },
});
const json = (index: number, partial_json: string) => ({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });

describe('streamAnthropicTurn', () => {
  it('parses tool input only at content_block_stop; ping anywhere; "" becomes {}', async () => {
    const { events, response } = await collect([
      start(),
      toolStart(0, 'toolu_a'),
      { type: 'ping' },
      json(0, ''),
      json(0, '{"path": "a\\'),
      json(0, 'u00e9.md"}'),
      { type: 'content_block_stop', index: 0 },
      toolStart(1, 'toolu_b'),
      json(1, ''),
      { type: 'content_block_stop', index: 1 },
      ...stop('tool_use'),
    ]);
    expect(response.message.content).toEqual([
      { type: 'tool_use', id: 'toolu_a', name: 'Read', input: { path: 'aé.md' } },
      { type: 'tool_use', id: 'toolu_b', name: 'Read', input: {} },
    ]);
    expect(events.map((event) => event.type)).toEqual([
      'usage', 'tool-input-start', 'tool-input-delta', 'tool-input-delta', 'tool-input-delta', 'tool-input-start', 'tool-input-delta', 'usage', 'response',
    ]);
  });

  it('reports the usage so far at message_start and message_delta (what a call given up midway was billed for)', async () => {
    const { events, response } = await collect([start({ input_tokens: 1200, output_tokens: 1, cache_read_input_tokens: 800 }), ...stop('end_turn', { output_tokens: 42 })]);
    const reported = events.filter((event) => event.type === 'usage').map((event) => (event as { usage: unknown }).usage);
    expect(reported).toEqual([
      { inputTokens: 1200, outputTokens: 1, cacheReadInputTokens: 800, cacheCreationInputTokens: 0 },
      { inputTokens: 1200, outputTokens: 42, cacheReadInputTokens: 800, cacheCreationInputTokens: 0 },
    ]);
    expect(response.usage).toEqual(reported[1]);
    // Copies: the response's usage is not the object an earlier event carried.
    expect(reported[0]).not.toBe(response.usage);
  });

  it('marks JSON that does not parse, keeping the raw text', async () => {
    const { response } = await collect([start(), toolStart(0, 'toolu_a'), json(0, '{"path": "a'), ...stop('max_tokens')]);
    const input = (response.message.content[0] as { input: unknown }).input;
    expect(isIncompleteToolInput(input)).toBe(true);
    expect(input).toEqual({ __incomplete_json__: '{"path": "a' });
    expect(isIncompleteToolInput({})).toBe(false);
  });

  it('usage: the last value of each counter, never summed', async () => {
    const { response } = await collect([
      start({ input_tokens: 100, output_tokens: 5, cache_read_input_tokens: 50, cache_creation_input_tokens: null }),
      ...stop('end_turn', { input_tokens: 100, output_tokens: 40, cache_read_input_tokens: 50, cache_creation_input_tokens: 7 }),
    ]);
    expect(response.usage).toEqual({ inputTokens: 100, outputTokens: 40, cacheReadInputTokens: 50, cacheCreationInputTokens: 7 });
    expect(response).toMatchObject({ id: 'msg_1', model: 'claude-test', stopReason: 'end_turn' });
  });

  it('passes unknown blocks and deltas through; signature and citations deltas apply', async () => {
    const { response } = await collect([
      start(),
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hm' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'cited' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'citations_delta', citation: { url: 'u' } } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'future_block', data: { a: 1 } } },
      { type: 'content_block_delta', index: 2, delta: { type: 'future_delta', status: 'done' } },
      { type: 'content_block_stop', index: 2 },
      { type: 'content_block_delta', index: 9, delta: { type: 'text_delta', text: 'lost' } },
      { type: 'future_event' },
      ...stop('pause_turn'),
    ]);
    expect(response.message.content).toEqual([
      { type: 'thinking', thinking: 'hm', signature: 'sig' },
      { type: 'text', text: 'cited', citations: [{ url: 'u' }] },
      { type: 'future_block', data: { a: 1 }, status: 'done' },
    ]);
    expect(response.stopReason).toBe('pause_turn');
  });

  it('a stream that ends before message_stop: retryable ModelError', async () => {
    const events = [start(), { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }];
    await expect(collect(events)).rejects.toSatisfy(
      (error: unknown) => ModelError.isInstance(error) && error.retryable && /before `message_stop`/.test(error.message),
    );
  });
});
