import { describe, expect, it } from 'vitest';
import type { Message } from 'agent-harness';
import { validateMessagesRequestBody } from 'agent-harness/testing';
import { toolBlocksAsText } from '../../src/loop/tool-blocks-as-text.js';

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
