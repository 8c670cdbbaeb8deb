import { describe, expect, it } from 'vitest';
import type { Message } from 'agent-harness';
import { validateMessagesRequestBody } from 'agent-harness/testing';
import { toolBlocksAsText, type ToolBlockScanSlot } from '../../src/loop/tool-blocks-as-text.js';

const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } } as const;

describe('toolBlocksAsText', () => {
  it('returns the history itself when it holds no tool block', () => {
    const messages: Message[] = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] }];
    expect(toolBlocksAsText(messages)).toBe(messages);
  });

  it('turns calls and results into text the API takes without tools, keeping images and leaving the input untouched', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Check both.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'toolu_a', name: 'look', input: { path: 'a.md' } }, { type: 'tool_use', id: 'toolu_b', name: 'shot', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: '', is_error: true },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: [{ type: 'text', text: 'the screen' }, image, { type: 'tool_reference', tool_name: 'zoom' }, { type: 'text', text: '  ' }] },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ];
    const before = structuredClone(messages);
    const sent = toolBlocksAsText(messages);
    expect(messages).toEqual(before);
    expect(sent[0]).toBe(messages[0]);
    expect(sent[3]).toBe(messages[3]);
    expect(JSON.stringify(sent)).not.toMatch(/"tool_use"|"tool_result"|"tool_reference"/);
    expect(sent[1]!.content).toEqual([
      { type: 'text', text: 'Checking.' },
      { type: 'text', text: '(Called the tool "look" (call toolu_a) with {"path":"a.md"}. This agent has no tools now.)' },
      { type: 'text', text: '(Called the tool "shot" (call toolu_b) with {}. This agent has no tools now.)' },
    ]);
    expect(sent[2]!.content).toEqual([
      { type: 'text', text: '(The result, an error, of the call toolu_a of "look": (empty))' },
      { type: 'text', text: '(The result of the call toolu_b of "shot":' },
      { type: 'text', text: 'the screen' },
      image,
      { type: 'text', text: '(the tool "zoom")' },
      { type: 'text', text: ')' },
    ]);
    expect(validateMessagesRequestBody({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: sent })).toBeUndefined();
    // The same history gives the same bytes (the prompt cache holds across turns).
    expect(JSON.stringify(toolBlocksAsText(messages))).toBe(JSON.stringify(sent));
  });

  it('names an input it cannot write out instead of throwing', () => {
    const input: Record<string, unknown> = {};
    input.self = input;
    const sent = toolBlocksAsText([{ role: 'user', content: 'go' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_c', name: 'loop', input }] }]);
    expect(sent[1]!.content).toEqual([{ type: 'text', text: '(Called the tool "loop" (call toolu_c) with an input that could not be written out. This agent has no tools now.)' }]);
  });
});

describe('toolBlocksAsText turn after turn, with the agent’s slot', () => {
  const say = (role: 'user' | 'assistant', text: string): Message => ({ role, content: [{ type: 'text', text }] });

  it('gives what a fresh search gives at every step: growing, a tool block arriving, the last message replaced, cut back', () => {
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let trial = 0; trial < 30; trial++) {
      const slot: ToolBlockScanSlot = {};
      const history: Message[] = [say('user', 'Start.')];
      for (let step = 0; step < 60; step++) {
        // One to four changes between two requests (a cut back and a regrowth past it among them).
        for (let change = Math.floor(random() * 4); change >= 0; change--) {
          const roll = random();
          if (roll < 0.1 && history.length > 3) history.length = 1 + Math.floor(random() * (history.length - 1));
          else if (roll < 0.2) history[history.length - 1] = history[history.length - 1]!.role === 'user' ? say('user', `again ${step}`) : say('assistant', `again ${step}`);
          else if (roll < 0.3 && history[history.length - 1]!.role === 'user') {
            // A call and its result, as a session continued by an agent without tools may hold.
            history.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${step}_${change}`, name: 'read', input: { step } }] });
            history.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${step}_${change}`, content: 'ok' }] });
          } else history.push(say(history[history.length - 1]!.role === 'user' ? 'assistant' : 'user', `turn ${step}`));
        }
        expect(toolBlocksAsText(history, slot)).toEqual(toolBlocksAsText([...history]));
      }
    }
  });

  it('gives what a fresh search gives once the history holds tool blocks: calls in the last message replaced, results naming calls cut away', () => {
    let seed = 5;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let trial = 0; trial < 30; trial++) {
      const slot: ToolBlockScanSlot = {};
      const ids: string[] = [];
      const history: Message[] = [say('user', 'Start.'), { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_first', name: 'first', input: {} }] }];
      for (let step = 0; step < 60; step++) {
        for (let change = Math.floor(random() * 4); change >= 0; change--) {
          const roll = random();
          const last = history[history.length - 1]!;
          if (roll < 0.1 && history.length > 3) history.length = 2 + Math.floor(random() * (history.length - 2));
          else if (roll < 0.4 && last.role === 'user') {
            // A call, under a name drawn afresh (a replaced message may reuse an id under another name).
            const id = `toolu_${Math.floor(random() * 12)}`;
            ids.push(id);
            const use = { role: 'assistant', content: [{ type: 'tool_use', id, name: `tool${Math.floor(random() * 5)}`, input: { step } }] } as Message;
            history.push(use);
          } else if (roll < 0.5) {
            // The last message replaced (its calls gone, or others in their place).
            history[history.length - 1] = last.role === 'user' ? say('user', `again ${step}`) : say('assistant', `again ${step}`);
          } else if (last.role === 'assistant') {
            // A result for some call made so far (perhaps one whose message was cut away or replaced).
            const id = ids.length > 0 && random() < 0.8 ? ids[Math.floor(random() * ids.length)]! : 'toolu_first';
            history.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `ok ${step}` }] });
          } else history.push(say('assistant', `turn ${step}`));
        }
        expect(toolBlocksAsText(history, slot)).toEqual(toolBlocksAsText([...history]));
      }
    }
  });

  it('does not keep the name of a call whose message was replaced before it settled', () => {
    const slot: ToolBlockScanSlot = {};
    const history: Message[] = [say('user', 'Start.'), { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'gone', input: {} }] }];
    toolBlocksAsText(history, slot);
    history[1] = say('assistant', 'Never mind.');
    history.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'late' }] });
    const sent = toolBlocksAsText(history, slot);
    expect(sent[2]!.content).toEqual([{ type: 'text', text: '(The result of the call toolu_x: late)' }]);
    expect(sent).toEqual(toolBlocksAsText([...history]));
  });

  it('writes out only the new messages once the history holds tool blocks', () => {
    const slot: ToolBlockScanSlot = {};
    const history: Message[] = [say('user', 'Start.')];
    for (let step = 0; step < 50; step++) {
      history.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${step}`, name: 'read', input: {} }] });
      history.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${step}`, content: 'ok' }] });
    }
    const first = toolBlocksAsText(history, slot);
    const early = first[3];
    // A getter on an early message's content counts how often it is read.
    let reads = 0;
    const message = history[3]!;
    const content = message.content;
    Object.defineProperty(message, 'content', { get: () => (reads++, content), configurable: true });
    history.push(say('assistant', 'Done.'), say('user', 'More.'));
    const next = toolBlocksAsText(history, slot);
    expect(reads).toBe(0);
    // The settled part's text forms are the same objects (so is the array: changed in place).
    expect(next[3]).toBe(early);
    expect(next).toBe(first);
    expect(next).toEqual(toolBlocksAsText([...history]));
    expect(reads).toBeGreaterThan(0);
  });

  it('looks at the new messages only: a history without tool blocks is not searched again from the start', () => {
    const slot: ToolBlockScanSlot = {};
    const history: Message[] = [say('user', 'Start.')];
    for (let step = 0; step < 50; step++) history.push(say('assistant', 'Sure.'), say('user', 'More.'));
    expect(toolBlocksAsText(history, slot)).toBe(history);
    // A getter on an early message's content counts how often it is read.
    let reads = 0;
    const early = history[3]!;
    const content = early.content;
    Object.defineProperty(early, 'content', { get: () => (reads++, content), configurable: true });
    history.push(say('assistant', 'Sure.'));
    expect(toolBlocksAsText(history, slot)).toBe(history);
    expect(reads).toBe(0);
    expect(toolBlocksAsText(history)).toBe(history);
    expect(reads).toBeGreaterThan(0);
  });
});
