import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateMessagesRequest } from 'agent-harness/testing';
import { repairHistory } from '../../src/history/repair-history.js';
import type { Message } from '../../src/model/messages.js';

const user = (...content: unknown[]) => ({ role: 'user', content }) as Message;
const assistant = (...content: unknown[]) => ({ role: 'assistant', content }) as Message;
const text = (value: string) => ({ type: 'text', text: value });
const use = (id: string) => ({ type: 'tool_use', id, name: 'tool', input: {} });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });

/** A history ending with a user message, as a request sends it: an open batch is answered first. */
function asRequest(messages: Message[]): Message[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return messages;
  const ids = (last.content as Array<{ type: string; id?: string }>).filter((block) => block.type === 'tool_use').map((block) => block.id!);
  return [...messages, user(...ids.map(result), text('go on'))];
}

describe('repairHistory', () => {
  it('leaves a valid history as it is, with no changes', () => {
    const messages = [user(text('hi')), assistant(text('calling'), use('a')), user(result('a'), text('thanks')), assistant(text('done'))];
    const repaired = repairHistory(messages);
    expect(repaired.changes).toEqual([]);
    expect(repaired.messages).toEqual(messages);
  });

  it('drops blank text (the transcripts written before the fix) and says so', () => {
    const repaired = repairHistory([user(text('hi')), assistant(text('  '), use('a')), user(result('a')), assistant(text('\n'), text('ok'))]);
    expect(repaired.changes.length).toBeGreaterThan(0);
    expect(validateMessagesRequest(asRequest(repaired.messages))).toBeUndefined();
  });

  it('answers a call whose result line was lost, and drops a result that answers nothing', () => {
    const repaired = repairHistory([user(text('hi')), assistant(use('a'), use('b')), user(result('b'), result('zzz'), text('next'))]);
    expect(repaired.messages[2]).toEqual(
      user({ type: 'tool_result', tool_use_id: 'a', content: expect.stringMatching(/lost/), is_error: true }, result('b'), text('next')),
    );
    expect(repaired.changes.join(' ')).toMatch(/no stored result.*answered no call|answered no call.*no stored result/);
    expect(validateMessagesRequest(repaired.messages)).toBeUndefined();
  });

  it('joins adjacent messages of one role, and opens with the user', () => {
    const repaired = repairHistory([assistant(text('first')), assistant(text('second')), user(text('a')), user(text('b'))]);
    expect(repaired.messages[0]!.role).toBe('user');
    expect(validateMessagesRequest(repaired.messages)).toBeUndefined();
  });

  it('keeps the calls of a final assistant message unanswered (the open batch answers them)', () => {
    const repaired = repairHistory([user(text('hi')), assistant(use('a'))]);
    expect(repaired.messages).toHaveLength(2);
    expect(repaired.changes).toEqual([]);
  });

  it('drops a user message with no blocks, or with nothing but what is no block, saying which', () => {
    const repaired = repairHistory([user(text('hi')), assistant(text('ok')), user(), assistant(text('and')), user(null, 42), assistant(text('done'))]);
    expect(repaired.changes.slice(0, 2)).toEqual(['message 3 was dropped: it had no content', 'message 5 was dropped: it had no content']);
    expect(repaired.messages).toEqual([user(text('hi')), assistant(text('ok'), text('and'), text('done'))]);
  });

  it('drops the fields of a message besides role and content (the API refuses any), saying which; one left undefined is no field', () => {
    const history = [
      { role: 'user', content: 'hi', name: 'Init' },
      { role: 'assistant', content: [text('hello')], id: 'msg_1', usage: { input_tokens: 1 } },
      { role: 'user', content: [text('more')], cache_control: { type: 'ephemeral' }, note: undefined },
      { role: 'assistant', content: [text('ok')], stop_reason: undefined },
    ] as unknown as Message[];
    const repaired = repairHistory(history);
    expect(repaired.messages).toEqual([user(text('hi')), assistant(text('hello')), user(text('more')), assistant(text('ok'))]);
    for (const message of repaired.messages) expect(Object.keys(message).sort()).toEqual(['content', 'role']);
    expect(repaired.changes).toEqual([
      'message 1: its field "name" was dropped (a message has only a role and content; the API refuses any other field)',
      'message 2: its fields "id", "usage" were dropped (a message has only a role and content; the API refuses any other field)',
      'message 3: its field "cache_control" was dropped (a message has only a role and content; the API refuses any other field)',
    ]);
    expect(validateMessagesRequest(history)).toBe('messages.0.name: Extra inputs are not permitted');
    expect(validateMessagesRequest(asRequest(repaired.messages))).toBeUndefined();
    // A message without extra fields is kept as the same object (nothing copied on resume).
    const clean = user(text('hi'));
    expect(repairHistory([clean]).messages[0]).toBe(clean);
  });

  it('never throws on junk, and drops what is not a message', () => {
    const repaired = repairHistory([null, 42, 'x', { role: 'system', content: 'no' }, { role: 'user' }, user(text('hi'))]);
    expect(repaired.messages).toEqual([user(text('hi'))]);
    expect(repaired.changes.length).toBe(5);
  });

  it('property: any damage to a valid history repairs to one the API accepts', () => {
    const block = fc.oneof(
      fc.constantFrom('hi', '', ' ', '\n').map(text),
      fc.constantFrom('a', 'b', 'c').map(use),
      fc.constantFrom('a', 'b', 'c', 'x').map(result),
      fc.constant({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }),
      // Damage a loaded history can hold: an error result with no content, blank text inside a
      // result, something that is no block.
      fc.constantFrom('a', 'b').map((id) => ({ type: 'tool_result', tool_use_id: id, content: '', is_error: true })),
      fc.constantFrom('a', 'b').map((id) => ({ type: 'tool_result', tool_use_id: id, content: [text(' '), text('ok')] })),
      fc.constant(null),
    );
    const message = fc.record(
      {
        role: fc.constantFrom('user', 'assistant'),
        content: fc.oneof(fc.array(block, { maxLength: 5 }), fc.constantFrom('text', '', '  ')),
        // A field a hand-edited or foreign transcript may carry, which the API refuses.
        name: fc.constantFrom('Init', undefined),
      },
      { requiredKeys: ['role', 'content'] },
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), (messages) => {
        const repaired = repairHistory(messages);
        if (repaired.messages.length === 0) return;
        // Tool results may only follow calls: a history of results alone repairs to nothing valid to send.
        const request = asRequest(repaired.messages);
        // No blank text in what the user side says, inside a tool result neither (the API refuses it).
        const texts = JSON.stringify(repaired.messages.filter((message) => message.role === 'user')).match(/"text":"[^"]*"/g) ?? [];
        for (const found of texts) expect(found.slice(8, -1).trim()).not.toBe('');
        expect(validateMessagesRequest(request)).toBeUndefined();
        // Repairing again changes nothing, and gives the same messages.
        const again = repairHistory(repaired.messages);
        expect(again.changes).toEqual([]);
        expect(again.messages).toEqual(repaired.messages);
      }),
      { numRuns: 1500, seed: 20261201 },
    );
  });

  it('property: a valid history (calls answered in order, first) comes back as it is, with no changes', () => {
    // Valid histories in many shapes: each turn's calls (0–3, fresh ids) answered first and in
    // order, with text before or after; the last model message may leave its calls open.
    let next = 0;
    const turn = fc.record({ calls: fc.integer({ min: 0, max: 3 }), said: fc.boolean(), after: fc.boolean() });
    fc.assert(
      fc.property(fc.array(turn, { minLength: 1, maxLength: 8 }), fc.boolean(), (turns, openAtEnd) => {
        const messages: Message[] = [user(text('start'))];
        for (const [index, { calls, said, after }] of turns.entries()) {
          const ids = Array.from({ length: calls }, () => `toolu_${++next}`);
          messages.push(assistant(...(said || calls === 0 ? [text('working')] : []), ...ids.map(use)));
          if (openAtEnd && index === turns.length - 1 && calls > 0) break;
          messages.push(user(...ids.map(result), ...(after || calls === 0 ? [text('go on')] : [])));
        }
        const repaired = repairHistory(messages);
        expect(repaired.changes).toEqual([]);
        expect(repaired.messages).toEqual(messages);
      }),
      { numRuns: 300, seed: 20261206 },
    );
  });
});
