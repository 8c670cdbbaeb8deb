import { describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { readClaudeCodeSession } from '../../../src/interop/claude-code/read-claude-code-session.js';
import type { MessageEntry, SessionEntry } from '../../../src/state/entries.js';

let uuid = 0;
const common = () => ({ sessionId: 'sess-1', timestamp: `2026-02-10T10:00:${String(uuid).padStart(2, '0')}.000Z`, uuid: `u${++uuid}`, isSidechain: false });

const usage = (output: number) => ({ input_tokens: 3, output_tokens: output, cache_read_input_tokens: 100, cache_creation_input_tokens: 7, service_tier: 'standard' });
const assistant = (id: string, block: object, output = 1, extra: object = {}) =>
  JSON.stringify({ ...common(), type: 'assistant', requestId: 'req_1', message: { model: 'claude-opus-4-6', id, type: 'message', role: 'assistant', content: [block], stop_reason: null, usage: usage(output) }, ...extra });
const user = (content: unknown, extra: object = {}) => JSON.stringify({ ...common(), type: 'user', message: { role: 'user', content }, ...extra });
const result = (toolUseId: string, extra: object = {}) => user([{ tool_use_id: toolUseId, type: 'tool_result', content: 'done' }], extra);
const toolUse = (id: string, name = 'Read', input: object = {}) => ({ type: 'tool_use', id, name, input });
const progress = () => JSON.stringify({ ...common(), type: 'progress', data: { type: 'hook_progress' }, toolUseID: 'x', parentToolUseID: 'x' });

async function read(text: string, options = {}) {
  const reader = readClaudeCodeSession(text, options);
  const entries: SessionEntry[] = [];
  for await (const entry of reader) entries.push(entry);
  return { entries, stats: reader.stats, messages: entries.filter((entry): entry is MessageEntry => entry.kind === 'message') };
}

/** A short session with the shapes real files have: split messages, parallel calls, noise lines. */
const session = [
  JSON.stringify({ type: 'file-history-snapshot', messageId: 'm0', snapshot: {}, isSnapshotUpdate: false }),
  user('Look at the files'),
  assistant('msg_A', { type: 'thinking', thinking: 'hmm', signature: 'sig' }),
  assistant('msg_A', { type: 'text', text: 'Reading both.' }),
  assistant('msg_A', toolUse('t1')),
  progress(),
  // Claude Code starts the first call while the second streams: its result lands in between.
  result('t1', { toolUseResult: { file: { numLines: 3 } }, slug: 'lexical-painting-whisper' }),
  assistant('msg_A', toolUse('t2'), 42, { slug: 'lexical-painting-whisper' }),
  JSON.stringify({ type: 'queue-operation', operation: 'enqueue', sessionId: 'sess-1' }),
  result('t2'),
  assistant('msg_B', { type: 'text', text: 'Done.' }, 5),
  JSON.stringify({ ...common(), type: 'system', subtype: 'turn_duration', durationMs: 5 }),
].join('\n');

describe('readClaudeCodeSession', () => {
  it('merges the lines of one message, moves results written in between after it, and counts usage once', async () => {
    const { entries, messages, stats } = await read(session);
    // The slug first appears inside the split message, so its entry waits until the message is complete.
    expect(entries.map((entry) => entry.kind)).toEqual(['message', 'message', 'message', 'message', 'session-meta', 'message']);
    const [prompt, merged, first, second, last] = messages;
    expect(prompt?.message).toEqual({ role: 'user', content: 'Look at the files' });
    expect(merged?.messageId).toBe('msg_A');
    expect(merged?.message.content).toEqual([
      { type: 'thinking', thinking: 'hmm', signature: 'sig' },
      { type: 'text', text: 'Reading both.' },
      toolUse('t1'),
      toolUse('t2'),
    ]);
    // The last line of a message carries the final output count; it is taken once.
    expect(merged?.usage).toEqual({ inputTokens: 3, outputTokens: 42, cacheReadInputTokens: 100, cacheCreationInputTokens: 7 });
    expect(first?.message.content).toMatchObject([{ tool_use_id: 't1' }]);
    expect(first?.toolUseResult).toEqual({ file: { numLines: 3 } });
    expect(second?.message.content).toMatchObject([{ tool_use_id: 't2' }]);
    expect(last?.message.content).toEqual([{ type: 'text', text: 'Done.' }]);
    expect(stats).toEqual({
      lines: 12,
      malformedLines: 0,
      skippedLines: 4,
      skippedByKind: { 'file-history-snapshot': 1, progress: 1, 'queue-operation': 1, 'system/turn_duration': 1 },
      entries: 6,
      messages: 5,
      mergedLines: 3,
      duplicateLines: 0,
      droppedBlocks: 0,
    });
  });

  it('chains entries: ids from the lines, parentId the previous entry of the thread', async () => {
    const { entries } = await read(session);
    expect(entries[0]?.parentId).toBeNull();
    for (let index = 1; index < entries.length; index++) expect(entries[index]?.parentId).toBe(entries[index - 1]?.id);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
    expect(entries.every((entry) => entry.sessionId === 'sess-1' && entry.$schemaVersion === 2 && entry.seq > 0)).toBe(true);
    expect(entries.find((entry) => entry.kind === 'session-meta')).toMatchObject({ slug: 'lexical-painting-whisper' });
  });

  it('orders results moved after a message like its calls', async () => {
    const text = [assistant('m', toolUse('a')), assistant('m', toolUse('b')), result('b'), result('a'), user('next')].join('\n');
    const { messages } = await read(text);
    expect(messages.map((message) => (message.message.content as Array<{ tool_use_id?: string }>)[0]?.tool_use_id ?? 'text')).toEqual(['text', 'a', 'b', 'text']);
  });

  it('gives the same entries however the text is cut into chunks, as text or as bytes', async () => {
    const text = [user('Ünïcödé 😀 prompt'), assistant('m1', { type: 'text', text: 'réponse — 中文' })].join('\r\n') + '\n';
    const expected = (await read(text)).entries;
    const bytes = new TextEncoder().encode(text);
    for (let cut = 0; cut <= bytes.length; cut += 3) {
      const byteReader = readClaudeCodeSession([bytes.slice(0, cut), bytes.slice(cut)]);
      const fromBytes: SessionEntry[] = [];
      for await (const entry of byteReader) fromBytes.push(entry);
      expect(fromBytes).toEqual(expected);
    }
    for (let cut = 0; cut <= text.length; cut++) {
      async function* chunks() {
        yield text.slice(0, cut);
        yield text.slice(cut);
      }
      const fromText: SessionEntry[] = [];
      for await (const entry of readClaudeCodeSession(chunks())) fromText.push(entry);
      expect(fromText).toEqual(expected);
    }
  });

  it('reads an iterable of lines with lines: true', async () => {
    const lines = session.split('\n');
    const reader = readClaudeCodeSession(lines, { lines: true });
    const entries: SessionEntry[] = [];
    for await (const entry of reader) entries.push(entry);
    expect(entries).toEqual((await read(session)).entries);
  });

  it('skips malformed lines, counts them and warns, and goes on', async () => {
    const onWarning = vi.fn();
    const text = ['{not json', '"a string"', '{"no":"type"}', user('still read'), '{"type":"user","message":{"role":"user"}}', '', '   ', '{"type":"assistant","mess'].join('\n');
    const { messages, stats } = await read(text, { onWarning, source: 'session.jsonl' });
    expect(messages).toHaveLength(1);
    expect(stats.malformedLines).toBe(5);
    expect(onWarning).toHaveBeenCalledTimes(5);
    expect(onWarning.mock.calls[0]?.[0]).toMatchObject({ lineNumber: 1, source: 'session.jsonl', message: expect.stringMatching(/^Skipped line 1 of session.jsonl: not valid JSON/) });
    expect(onWarning.mock.calls.map(([warning]) => warning.lineNumber)).toEqual([1, 2, 3, 5, 8]);
  });

  it('reads the record appended onto a torn line, losing only the torn record, with one warning', async () => {
    const onWarning = vi.fn();
    const torn = JSON.stringify({ ...common(), type: 'assistant', uuid: 'a1', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'hi {"x"' }] } }).slice(0, 120);
    const text = [user('first'), torn + user('glued on'), user('last')].join('\n');
    const { messages, stats } = await read(text, { onWarning });
    expect(messages.map((entry) => entry.message.content)).toEqual(['first', 'glued on', 'last']);
    expect(stats.malformedLines).toBe(1);
    expect(onWarning).toHaveBeenCalledTimes(1);
    expect(onWarning.mock.calls[0]?.[0]).toMatchObject({ lineNumber: 2, message: expect.stringMatching(/first 120 characters are a torn record/) });
  });

  it('keeps inline sidechains (Claude Code 1.x) apart, each with its own agentId and chain', async () => {
    const main = common();
    const side = (content: string, parentUuid: string | null, id: string) =>
      JSON.stringify({ ...common(), uuid: id, parentUuid, isSidechain: true, type: 'user', message: { role: 'user', content } });
    const sideAssistant = (parentUuid: string, id: string, messageId: string) =>
      JSON.stringify({ ...common(), uuid: id, parentUuid, isSidechain: true, type: 'assistant', message: { id: messageId, role: 'assistant', content: [{ type: 'text', text: 'sub answer' }] } });
    const text = [
      JSON.stringify({ ...main, type: 'assistant', message: { id: 'main1', role: 'assistant', content: [toolUse('task1', 'Task'), toolUse('task2', 'Task')] } }),
      side('Task one', null, 's1'),
      side('Task two', null, 's2'),
      sideAssistant('s1', 's1a', 'sub1'),
      sideAssistant('s2', 's2a', 'sub2'),
      result('task1'),
      result('task2'),
    ].join('\n');
    const { entries } = await read(text);
    const byAgent = (agentId: string | undefined) => entries.filter((entry) => entry.agentId === agentId);
    expect(byAgent(undefined).map((entry) => entry.id)).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
    expect(byAgent('s1').map((entry) => entry.id)).toEqual(['s1', 's1a']);
    expect(byAgent('s2').map((entry) => entry.id)).toEqual(['s2', 's2a']);
    expect(byAgent('s1')[1]?.parentId).toBe('s1');
    expect(byAgent(undefined)[1]?.parentId).toBe(byAgent(undefined)[0]?.id);
  });

  it('uses the agentId of the line (Claude Code 2.x subagent files), or the given default', async () => {
    const line = JSON.stringify({ ...common(), isSidechain: true, agentId: 'aac57f5', type: 'user', message: { role: 'user', content: 'sub task' } });
    expect((await read(line)).entries[0]?.agentId).toBe('aac57f5');
    const bare = JSON.stringify({ ...common(), isSidechain: true, type: 'user', message: { role: 'user', content: 'sub task' } });
    expect((await read(bare, { agentId: 'from-file' })).entries[0]?.agentId).toBe('from-file');
  });

  it('turns compaction boundaries into entries and keeps compact summaries', async () => {
    const text = [
      user('before'),
      JSON.stringify({ ...common(), parentUuid: null, logicalParentUuid: 'u1', type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'manual' } }),
      user('This session is being continued from a previous conversation...', { isCompactSummary: true, isVisibleInTranscriptOnly: true }),
      user('after'),
    ].join('\n');
    const { entries } = await read(text);
    expect(entries.map((entry) => entry.kind)).toEqual(['message', 'compact-boundary', 'message', 'message']);
    expect((entries[2] as MessageEntry).isCompactSummary).toBe(true);
    expect((entries[3] as MessageEntry).isCompactSummary).toBeUndefined();
  });

  it('maps planContent, plan file attachments, and a changed slug', async () => {
    const text = [
      user('Implement the following plan: ...', { planContent: '# Plan\n1. Do it', slug: 'a-b-c' }),
      JSON.stringify({ ...common(), type: 'attachment', attachment: { type: 'plan_file_reference', planFilePath: '/home/u/.claude/plans/a-b-c.md', planContent: '# Plan\n1. Do it' } }),
      JSON.stringify({ ...common(), type: 'attachment', attachment: { type: 'plan_mode', planFilePath: '/p.md', planExists: false } }),
      JSON.stringify({ ...common(), type: 'attachment', attachment: { type: 'todo', content: [] } }),
      user('go on', { slug: 'd-e-f' }),
    ].join('\n');
    const { entries, stats } = await read(text);
    expect(entries.map((entry) => entry.kind)).toEqual(['session-meta', 'message', 'plan-reference', 'session-meta', 'message']);
    expect((entries[1] as MessageEntry).planContent).toBe('# Plan\n1. Do it');
    expect(entries[2]).toMatchObject({ kind: 'plan-reference', name: '/home/u/.claude/plans/a-b-c.md', text: '# Plan\n1. Do it' });
    expect(entries[3]).toMatchObject({ kind: 'session-meta', slug: 'd-e-f' });
    expect(stats.skippedByKind).toEqual({ 'attachment/plan_mode': 1, 'attachment/todo': 1 });
  });

  it('holds a slug seen inside a split message until the message is complete', async () => {
    const text = [assistant('m', { type: 'text', text: 'a' }), assistant('m', { type: 'text', text: 'b' }, 1, { slug: 'x-y-z' }), user('next')].join('\n');
    const { entries } = await read(text);
    expect(entries.map((entry) => entry.kind)).toEqual(['message', 'session-meta', 'message']);
    expect((entries[0] as MessageEntry).message.content).toHaveLength(2);
  });

  it('hands entries out while reading, not only at the end', async () => {
    let produced = 0;
    async function* lines() {
      for (let index = 0; index < 5; index++) {
        produced++;
        yield `${user(`prompt ${index}`)}\n`;
      }
    }
    const seenAt: number[] = [];
    for await (const _entry of readClaudeCodeSession(lines())) seenAt.push(produced);
    expect(seenAt[0]).toBeLessThan(5);
  });

  it('refuses sources it cannot read, and a second iteration', async () => {
    expect(() => readClaudeCodeSession(42 as never)).toThrow(ConfigurationError);
    const reader = readClaudeCodeSession('');
    for await (const _entry of reader) {
      // empty
    }
    expect(() => reader[Symbol.asyncIterator]()).toThrow(/only once/);
  });
});
