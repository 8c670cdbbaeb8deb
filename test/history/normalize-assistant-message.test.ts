import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeAssistantMessage } from '../../src/history/normalize-assistant-message.js';
import type { AssistantMessage } from '../../src/model/messages.js';

const use = (id: unknown, input: unknown = {}, name = 'write') => ({ type: 'tool_use', id, name, input }) as never;

describe('normalizeAssistantMessage', () => {
  it('returns the very message when nothing needs changing', () => {
    const message: AssistantMessage = { role: 'assistant', content: [{ type: 'text', text: 'Hi.' }, use('toolu_1')] };
    const normalized = normalizeAssistantMessage(message);
    expect(normalized.message).toBe(message);
    expect(normalized.refused).toEqual([]);
    expect(normalized.changes).toEqual([]);
  });

  it('drops empty and whitespace-only text blocks, keeping thinking and unknown blocks', () => {
    const thinking = { type: 'thinking', thinking: '…', signature: 'sig' } as never;
    const unknown = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} } as never;
    const normalized = normalizeAssistantMessage({ role: 'assistant', content: [thinking, { type: 'text', text: ' \n\t' }, { type: 'text', text: '' }, unknown, { type: 'text', text: 'ok' }] });
    expect(normalized.message.content).toEqual([thinking, unknown, { type: 'text', text: 'ok' }]);
    expect(normalized.changes).toEqual(['2 empty or whitespace-only text blocks were dropped']);
  });

  it('gives a duplicate or invalid id a fresh one and refuses that call only', () => {
    const normalized = normalizeAssistantMessage({ role: 'assistant', content: [use('toolu_a'), use('toolu_a'), use('bad id!'), use(42)] });
    const ids = normalized.message.content.map((block) => (block as { id: string }).id);
    expect(ids[0]).toBe('toolu_a');
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(normalized.refused.map((refusal) => refusal.toolUseId)).toEqual(ids.slice(1));
    expect(normalized.refused[0]!.message).toMatch(/already used by another call/);
  });

  it('replaces an input that is not a bounded JSON object with {} and refuses the call', () => {
    let deep: unknown = 1;
    for (let index = 0; index < 30_000; index++) deep = [deep];
    const normalized = normalizeAssistantMessage({ role: 'assistant', content: [use('toolu_1', { deep }), use('toolu_2', 'a string'), use('toolu_3', [1])] });
    expect(normalized.message.content.map((block) => (block as { input: unknown }).input)).toEqual([{}, {}, {}]);
    expect(normalized.refused.map((refusal) => refusal.message)).toEqual([
      expect.stringMatching(/nested deeper than 64 levels/),
      expect.stringMatching(/not a JSON object/),
      expect.stringMatching(/not a JSON object/),
    ]);
    expect(() => JSON.stringify(normalized.message)).not.toThrow();
  });
});

describe('normalizeAssistantMessage: the message kept as it is without copying', () => {
  // `takenIds` as a Set takes the path that checks the message in place first; as an array it
  // always takes the general path. Both must come out the same for any message.
  // Mostly valid calls, so that two valid calls of one id in a message are common.
  const id = fc.oneof({ arbitrary: fc.constantFrom('toolu_a', 'toolu_b', 'toolu_c'), weight: 8 }, { arbitrary: fc.constantFrom('bad id!', '', 42 as unknown as string), weight: 1 });
  const input = fc.oneof({ arbitrary: fc.constantFrom({}, { path: 'a.md' }), weight: 8 }, { arbitrary: fc.constantFrom([], null, 'text'), weight: 1 });
  const name = fc.oneof({ arbitrary: fc.constant('write'), weight: 8 }, { arbitrary: fc.constantFrom('', 7 as unknown as string), weight: 1 });
  const block = fc.oneof(
    fc.constantFrom('Hi.', '', ' ', 'ends with a space ', 'line\n').map((text) => ({ type: 'text', text })),
    fc.record({ type: fc.constant('tool_use'), id, name, input }),
    fc.constant({ type: 'thinking', thinking: '…', signature: 'sig' }),
  );
  const deep = () => {
    let value: unknown = 1;
    for (let level = 0; level < 200; level++) value = { value };
    return value;
  };

  it('property: a Set of taken ids and the same ids in an array give the same result', () => {
    fc.assert(
      fc.property(fc.array(block, { maxLength: 6 }), fc.subarray(['toolu_a', 'toolu_b']), (content, taken) => {
        const message = { role: 'assistant', content } as unknown as AssistantMessage;
        const inPlace = normalizeAssistantMessage(message, { takenIds: new Set(taken) });
        const general = normalizeAssistantMessage(message, { takenIds: [...taken] });
        expect(inPlace).toEqual(general);
        expect(inPlace.message === message).toBe(general.message === message);
      }),
      { numRuns: 1000, seed: 20261206 },
    );
  });

  it('refuses an input nested too deep, and a 33rd call of one message is checked on the general path', () => {
    const tooDeep = normalizeAssistantMessage({ role: 'assistant', content: [use('toolu_deep', deep())] }, { takenIds: new Set() });
    expect(tooDeep.refused.map((refusal) => refusal.toolUseId)).toEqual(['toolu_deep']);
    const many = Array.from({ length: 40 }, (_, index) => use(`toolu_${index % 35}`));
    const normalized = normalizeAssistantMessage({ role: 'assistant', content: many }, { takenIds: new Set() });
    expect(normalized.refused.map((refusal) => refusal.toolUseId)).toHaveLength(5);
    expect(new Set(normalized.message.content.map((block) => (block as { id: string }).id)).size).toBe(40);
  });
});
