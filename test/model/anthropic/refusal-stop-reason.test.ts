// A stream that reports a refusal and then another stop reason (a second message_delta from a
// hostile or buggy proxy, or a refusal already in message_start): the answer stays a refusal, so
// the loop never runs its calls nor goes on from it.
import { describe, expect, it } from 'vitest';
import type { AnthropicStreamEvent } from '../../../src/model/anthropic/anthropic-stream-event.js';
import { streamAnthropicTurn } from '../../../src/model/anthropic/stream-anthropic-turn.js';
import type { ModelResponse } from '../../../src/model/model.js';

async function* from(events: unknown[]): AsyncGenerator<AnthropicStreamEvent> {
  for (const event of events) yield event as AnthropicStreamEvent;
}
async function responseOf(events: unknown[]): Promise<ModelResponse> {
  let response: ModelResponse | undefined;
  for await (const event of streamAnthropicTurn(from(events))) if (event.type === 'response') response = event.response;
  if (!response) throw new Error('no response');
  return response;
}
const start = (stopReason: string | null = null) => ({ type: 'message_start', message: { id: 'msg_1', model: 'm', content: [], stop_reason: stopReason, usage: { input_tokens: 5, output_tokens: 1 } } });
const call = [
  { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'echo', input: {} } },
  { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"text": "a"}' } },
  { type: 'content_block_stop', index: 0 },
];
const delta = (stopReason: string | null) => ({ type: 'message_delta', delta: { stop_reason: stopReason }, usage: { output_tokens: 9 } });

describe('a refusal is not unsaid by a later stop reason', () => {
  it.each([['end_turn'], ['tool_use'], ['max_tokens'], [null]])('refusal, then %s: the answer is a refusal', async (later) => {
    const response = await responseOf([start(), ...call, delta('refusal'), delta(later), { type: 'message_stop' }]);
    expect(response.stopReason).toBe('refusal');
  });

  it('a refusal in message_start, then end_turn in message_delta: a refusal', async () => {
    const response = await responseOf([start('refusal'), ...call, delta('end_turn'), { type: 'message_stop' }]);
    expect(response.stopReason).toBe('refusal');
  });

  it('other stop reasons: the last one reported wins, as in the SDK', async () => {
    const response = await responseOf([start(), ...call, delta('max_tokens'), delta('tool_use'), { type: 'message_stop' }]);
    expect(response.stopReason).toBe('tool_use');
  });
});

describe('stop_details', () => {
  const details = { type: 'refusal', category: 'cyber', explanation: 'This request was declined because it could enable cyber harm.' };
  it('is kept with the refusal (category and explanation for the user)', async () => {
    const response = await responseOf([start(), ...call, { type: 'message_delta', delta: { stop_reason: 'refusal', stop_details: details }, usage: { output_tokens: 9 } }, { type: 'message_stop' }]);
    expect(response).toMatchObject({ stopReason: 'refusal', stopDetails: details });
  });

  it('null fields stay null; a later delta does not replace a refusal\'s details', async () => {
    const response = await responseOf([
      start(),
      { type: 'message_delta', delta: { stop_reason: 'refusal', stop_details: { type: 'refusal', category: null, explanation: null } } },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_details: details } },
      { type: 'message_stop' },
    ]);
    expect(response.stopDetails).toEqual({ type: 'refusal', category: null, explanation: null });
  });

  it.each([
    ['not an object', 'refused'],
    ['an object without a string type', { category: 'cyber' }],
    ['an array', [details]],
  ])('%s is left out', async (_name, hostile) => {
    const response = await responseOf([start(), { type: 'message_delta', delta: { stop_reason: 'refusal', stop_details: hostile } }, { type: 'message_stop' }]);
    expect(response.stopReason).toBe('refusal');
    expect(response.stopDetails).toBeUndefined();
  });

  it('fields of the wrong type become null, and an endless explanation is cut', async () => {
    const response = await responseOf([
      start(),
      { type: 'message_delta', delta: { stop_reason: 'refusal', stop_details: { type: 'refusal', category: 7, explanation: 'x'.repeat(100_000) } } },
      { type: 'message_stop' },
    ]);
    expect(response.stopDetails?.category).toBeNull();
    expect(response.stopDetails?.explanation?.length).toBeLessThanOrEqual(2000);
  });
});
