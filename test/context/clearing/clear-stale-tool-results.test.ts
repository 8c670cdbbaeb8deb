import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clearStaleToolResults, CLEARED_TOOL_RESULT_PREFIX } from '../../../src/context/clearing/clear-stale-tool-results.js';
import { spillHandle } from '../../../src/context/spill/spill-tool-result.js';
import type { Message, ToolResultBlock } from '../../../src/model/messages.js';
import { validateMessagesRequestBody } from '../../../src/testing/messages-server/validate-messages-request-body.js';
import { answerOpenCall, historyArbitrary } from '../compaction/history-arbitrary.js';

const big = (label: string) => `${label}\n${'data '.repeat(400)}`;
function round(id: string, name: string, input: unknown, result: string, extra: Partial<ToolResultBlock> = {}): Message[] {
  return [
    { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result, ...extra }] },
  ];
}
const history: Message[] = [
  { role: 'user', content: 'Investigate.' },
  ...round('t1', 'Read', { path: 'a.log' }, big('first log')),
  ...round('t2', 'memory', { command: 'view', path: '/memories' }, big('notes')),
  ...round('t3', 'Bash', { command: 'ls' }, 'a.log b.log'),
  ...round('t4', 'Bash', { command: 'cat b.log' }, big('second log'), { is_error: true }),
  ...round('t5', 'Read', { path: 'c.log' }, big('recent')),
];

const resultOf = (messages: Message[], id: string) =>
  messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content)).find((block) => block.type === 'tool_result' && (block as ToolResultBlock).tool_use_id === id) as ToolResultBlock;

describe('clearStaleToolResults', () => {
  it('replaces old big results by stubs saying what was there and how to get it again', () => {
    const { messages, cleared, clearedChars } = clearStaleToolResults(history, { keepRecentTurns: 1, excludeTools: ['memory'] });
    expect(cleared.map((entry) => entry.toolUseId)).toEqual(['t1', 't4']);
    expect(clearedChars).toBe(big('first log').length + big('second log').length);
    const stub = resultOf(messages, 't1').content as string;
    expect(stub.startsWith(CLEARED_TOOL_RESULT_PREFIX)).toBe(true);
    expect(stub).toContain('Read({"path":"a.log"})');
    expect(stub).toContain('2,010 characters');
    expect(stub).toContain('It began: "first log\\ndata');
    expect(stub).toContain('Make the call again if you need it and it is safe to repeat.');
    expect(resultOf(messages, 't4')).toMatchObject({ is_error: true, tool_use_id: 't4' });
    expect(resultOf(messages, 't4').content).toContain('the error result of Bash');
  });

  it('never touches the last turns, excluded tools or small results; shares untouched messages', () => {
    const { messages } = clearStaleToolResults(history, { keepRecentTurns: 1, excludeTools: ['memory'] });
    expect(messages.slice(-2)).toEqual(history.slice(-2));
    messages.forEach((message, index) => {
      const touched = index === 2 || index === 8;
      if (touched) expect(message).not.toBe(history[index]);
      else expect(message).toBe(history[index]);
    });
    expect(resultOf(messages, 't2').content).toBe(big('notes'));
    expect(resultOf(messages, 't3').content).toBe('a.log b.log');
    // The input is unchanged.
    expect(resultOf(history, 't1').content).toBe(big('first log'));
  });

  it('names ReadToolOutput for a spilled output', () => {
    const { messages } = clearStaleToolResults(history, { keepRecentTurns: 1, spilledHandle: (id) => (id === 't1' ? spillHandle(id) : undefined) });
    expect(resultOf(messages, 't1').content).toContain('ReadToolOutput({ "handle": "out_t1" })');
  });

  it('clears nothing when less than clearAtLeastChars would go, and never clears a stub again', () => {
    const little = clearStaleToolResults(history, { keepRecentTurns: 1, clearAtLeastChars: 100_000 });
    expect(little.messages).toBe(history);
    expect(little.cleared).toEqual([]);
    const once = clearStaleToolResults(history, { keepRecentTurns: 1, minimumResultChars: 0 });
    const twice = clearStaleToolResults(once.messages, { keepRecentTurns: 1, minimumResultChars: 0 });
    expect(twice.messages).toBe(once.messages);
  });

  it('writes a stub only for what it clears: none when less than clearAtLeastChars would go, one per result, oldest first', () => {
    const written: string[] = [];
    const stub = (call: { toolUseId: string }) => {
      written.push(call.toolUseId);
      return `${CLEARED_TOOL_RESULT_PREFIX} ${call.toolUseId}]`;
    };
    const enough = big('first log').length + big('second log').length;
    const little = clearStaleToolResults(history, { keepRecentTurns: 1, excludeTools: ['memory'], clearAtLeastChars: enough + 1, stub });
    expect(little.messages).toBe(history);
    expect(written).toEqual([]);
    const cleared = clearStaleToolResults(history, { keepRecentTurns: 1, excludeTools: ['memory'], clearAtLeastChars: enough, stub });
    expect(written).toEqual(['t1', 't4']);
    expect(cleared.cleared.map((entry) => entry.toolUseId)).toEqual(['t1', 't4']);
    expect(resultOf(cleared.messages, 't4')).toEqual({ type: 'tool_result', tool_use_id: 't4', content: `${CLEARED_TOOL_RESULT_PREFIX} t4]`, is_error: true });
  });

  it('copies a message with several cleared results once, each result in its place', () => {
    const wide: Message[] = [
      { role: 'user', content: 'Read both.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'w1', name: 'Read', input: { path: 'a' } }, { type: 'tool_use', id: 'w2', name: 'Read', input: { path: 'b' } }, { type: 'tool_use', id: 'w3', name: 'memory', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'w1', content: big('a') }, { type: 'text', text: 'Between.' }, { type: 'tool_result', tool_use_id: 'w3', content: big('kept') }, { type: 'tool_result', tool_use_id: 'w2', content: big('b') }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Read.' }] },
    ];
    const { messages, cleared } = clearStaleToolResults(wide, { keepRecentTurns: 1, excludeTools: ['memory'] });
    expect(cleared.map((entry) => entry.toolUseId)).toEqual(['w1', 'w2']);
    const content = messages[2]!.content as ToolResultBlock[];
    expect(content.map((block) => block.type)).toEqual(['tool_result', 'text', 'tool_result', 'tool_result']);
    expect(String(content[0]!.content)).toContain('Read({"path":"a"})');
    expect(content[2]!.content).toBe(big('kept'));
    expect(String(content[3]!.content)).toContain('Read({"path":"b"})');
    expect(messages[1]).toBe(wide[1]);
    expect((wide[2]!.content as ToolResultBlock[])[0]!.content).toBe(big('a'));
  });

  it('clears an image result however small its text', () => {
    const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png', data: 'AAAA' } };
    const withImage: Message[] = [
      { role: 'user', content: 'Look.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 's1', name: 'Screenshot', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 's1', content: [image] }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Seen.' }] },
    ];
    const { messages } = clearStaleToolResults(withImage, { keepRecentTurns: 1 });
    expect(resultOf(messages, 's1').content).toContain('0 characters and 1 image(s)');
  });

  it('keeps every history valid and never changes the protected tail (property)', () => {
    fc.assert(
      fc.property(historyArbitrary(), fc.nat(4), fc.nat(400), ({ messages }, keepRecentTurns, minimumResultChars) => {
        const { messages: out, cleared } = clearStaleToolResults(messages, { keepRecentTurns, minimumResultChars });
        expect(validateMessagesRequestBody({ model: 'm', max_tokens: 10, tools: [{ name: 'Read', description: 'Reads.', input_schema: { type: 'object' } }], messages: answerOpenCall(out) })).toBeUndefined();
        expect(out).toHaveLength(messages.length);
        // Same roles, same tool ids in the same places.
        const shape = (list: Message[]) =>
          list.map((message) => [message.role, typeof message.content === 'string' ? 'text' : message.content.map((block) => `${block.type}:${(block as { id?: string; tool_use_id?: string }).id ?? (block as { tool_use_id?: string }).tool_use_id ?? ''}`)]);
        expect(shape(out)).toEqual(shape(messages));
        const assistants = messages.flatMap((message, index) => (message.role === 'assistant' ? [index] : []));
        const protectedFrom = keepRecentTurns === 0 ? messages.length : (assistants[assistants.length - keepRecentTurns] ?? 0);
        for (let index = protectedFrom; index < messages.length; index++) expect(out[index]).toBe(messages[index]);
        if (cleared.length === 0) expect(out).toBe(messages);
      }),
      { numRuns: 400 },
    );
  });
});
