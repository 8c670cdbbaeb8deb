import { describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/errors/model-error.js';
import type { AnthropicStreamEvent } from '../../../src/model/anthropic/anthropic-stream-event.js';
import { streamAnthropicTurn } from '../../../src/model/anthropic/stream-anthropic-turn.js';
import type { ModelResponse, ModelStreamEvent } from '../../../src/model/model.js';

async function* from(events: unknown[], thenThrow?: unknown): AsyncGenerator<AnthropicStreamEvent> {
  for (const event of events) yield event as AnthropicStreamEvent;
  if (thenThrow) throw thenThrow;
}
async function collect(events: unknown[]) {
  const out: ModelStreamEvent[] = [];
  for await (const event of streamAnthropicTurn(from(events))) out.push(event);
  const last = out.at(-1);
  if (last?.type !== 'response') throw new Error('no response');
  return { events: out, response: last.response as ModelResponse };
}
const start = { type: 'message_start', message: { id: 'msg_1', model: 'm', content: [], stop_reason: null, usage: { input_tokens: 5, output_tokens: 1 } } };
const end = [{ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } }, { type: 'message_stop' }];

describe('accumulator edge cases', () => {
  it('tool_use with its input already in content_block_start and no deltas keeps that input', async () => {
    const { response } = await collect([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'Read', input: { path: 'a' } } },
      { type: 'content_block_stop', index: 0 },
      ...end,
    ]);
    expect(response.message.content[0]).toMatchObject({ input: { path: 'a' } });
  });

  it('tool_use with a non-empty start input followed by only an empty partial_json keeps the start input', async () => {
    const { response } = await collect([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'Read', input: { path: 'a' } } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } },
      { type: 'content_block_stop', index: 0 },
      ...end,
    ]);
    expect(response.message.content[0]).toMatchObject({ input: { path: 'a' } });
  });

  it('signature_delta sets the signature; citations_delta accumulates from citations: null / []', async () => {
    const cite = (n: number) => ({ type: 'web_search_result_location', url: `u${n}`, cited_text: 'x', title: 't', encrypted_index: 'e' });
    const { response } = await collect([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hm' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'SIG' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '', citations: null } },
      { type: 'content_block_delta', index: 1, delta: { type: 'citations_delta', citation: cite(1) } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'a' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'citations_delta', citation: cite(2) } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'redacted_thinking', data: 'xx' } },
      { type: 'content_block_stop', index: 2 },
      ...end,
    ]);
    expect(response.message.content).toEqual([
      { type: 'thinking', thinking: 'hm', signature: 'SIG' },
      { type: 'text', text: 'a', citations: [cite(1), cite(2)] },
      { type: 'redacted_thinking', data: 'xx' },
    ]);
  });

  it('usage keeps message_start output_tokens until message_delta, null fields ignored', async () => {
    const { response } = await collect([
      { ...start, message: { ...start.message, usage: { input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 100 } } },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { input_tokens: null, output_tokens: 12, cache_read_input_tokens: 100 } },
      { type: 'message_stop' },
    ]);
    expect(response.usage).toMatchObject({ inputTokens: 7, outputTokens: 12, cacheReadInputTokens: 100 });
  });

  it('a second message after message_stop in the same stream is ignored; one response', async () => {
    const { events, response } = await collect([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'one' } },
      { type: 'content_block_stop', index: 0 },
      ...end,
      { ...start, message: { ...start.message, id: 'msg_2' } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'two' } },
      ...end,
    ]);
    expect(events.filter((e) => e.type === 'response')).toHaveLength(1);
    expect(response.id).toBe('msg_1');
    expect(response.message.content).toEqual([{ type: 'text', text: 'one' }]);
  });

  it('an error thrown by the transport AFTER message_stop does not discard the complete message', async () => {
    const out: ModelStreamEvent[] = [];
    let error: unknown;
    const events = [
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'done' } },
      { type: 'content_block_stop', index: 0 },
      ...end,
    ];
    try {
      for await (const e of streamAnthropicTurn(from(events, new TypeError('terminated')))) out.push(e);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeUndefined();
    expect(out.at(-1)?.type).toBe('response');
  });

  it('1 MB of text deltas + 1 MB of tool JSON in 10-byte chunks assemble whole', async () => {
    const chunk = 'abcdefghij';
    const n = 100_000;
    const events: unknown[] = [start, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }];
    for (let i = 0; i < n; i++) events.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: chunk } });
    events.push({ type: 'content_block_stop', index: 0 });
    events.push({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't', name: 'W', input: {} } });
    const json = JSON.stringify({ content: 'x'.repeat(1_000_000) });
    for (let i = 0; i < json.length; i += 10) {
      events.push({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: json.slice(i, i + 10) } });
    }
    events.push({ type: 'content_block_stop', index: 1 }, ...end);
    const { response } = await collect(events);
    expect((response.message.content[0] as { text: string }).text.length).toBe(1_000_000);
    expect(((response.message.content[1] as { input: { content: string } }).input.content).length).toBe(1_000_000);
  });

  it('a ModelError from the source after abort maps to aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    let error: unknown;
    try {
      for await (const _ of streamAnthropicTurn(from([start]), { signal: controller.signal })) void _;
    } catch (caught) {
      error = caught;
    }
    expect(ModelError.isInstance(error) && (error as ModelError).errorType).toBe('aborted');
  });
});

describe('tool input that parses to a non-object', () => {
  it('partial_json that parses to null / an array / a string is marked incomplete (the API needs an object input)', async () => {
    for (const raw of ['null', '[1,2]', '"text"']) {
      const { response } = await collect([
        start,
        { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'Read', input: {} } },
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: raw } },
        { type: 'content_block_stop', index: 0 },
        ...end,
      ]);
      const input = (response.message.content[0] as { input: unknown }).input;
      expect(typeof input === 'object' && input !== null && !Array.isArray(input)).toBe(true);
    }
  });
});

describe('a delta whose type does not fit its block', () => {
  it('leaves the block as the API would take it back: no signature on text, no citations on thinking, no input on text, no field overwritten', async () => {
    const cite = { type: 'char_location', cited_text: 'x', document_index: 0, start_char_index: 0, end_char_index: 1 };
    const { response } = await collect([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'SIG' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"a":1}' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'future_delta', text: 5, type2: 'x' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'thinking_delta', thinking: 'hm' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'citations_delta', citation: cite } },
      { type: 'content_block_delta', index: 1, delta: { type: 'signature_delta', signature: { not: 'a string' } } },
      { type: 'content_block_delta', index: 1, delta: { type: 'signature_delta', signature: 'SIG' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'redacted_thinking', data: 'abc' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'future_delta', data: 'overwritten' } },
      { type: 'content_block_stop', index: 2 },
      { type: 'content_block_start', index: 3, content_block: { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} } },
      { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: '{"path":"a"}' } },
      { type: 'content_block_delta', index: 3, delta: { type: 'future_delta', name: 'Bash', id: 'other' } },
      { type: 'content_block_stop', index: 3 },
      { type: 'content_block_start', index: 4, content_block: { type: 'compaction', content: '' } },
      { type: 'content_block_delta', index: 4, delta: { type: 'compaction_delta', content: 'Summary.' } },
      { type: 'content_block_stop', index: 4 },
      ...end,
    ]);
    expect(response.message.content).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'thinking', thinking: 'hm', signature: 'SIG' },
      { type: 'redacted_thinking', data: 'abc' },
      { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a' } },
      { type: 'compaction', content: 'Summary.' },
    ]);
  });

  it('a delta of an unknown block type with a __proto__ field stores it as a field, not as the prototype', async () => {
    const delta = JSON.parse('{"type":"future_delta","__proto__":{"type":"tool_use","name":"Bash"},"data":"d"}');
    const { response } = await collect([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'future_block', data: '' } },
      { type: 'content_block_delta', index: 0, delta },
      { type: 'content_block_stop', index: 0 },
      ...end,
    ]);
    const block = response.message.content[0] as unknown as Record<string, unknown>;
    expect(Object.getPrototypeOf(block)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(block))).toEqual(JSON.parse('{"type":"future_block","data":"d","__proto__":{"type":"tool_use","name":"Bash"}}'));
  });
});
