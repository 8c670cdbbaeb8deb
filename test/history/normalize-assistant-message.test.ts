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
