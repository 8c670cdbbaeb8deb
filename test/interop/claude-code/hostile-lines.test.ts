/**
 * Attacks on the Claude Code reader: torn lines, lines written twice, messages split and
 * repeated, unknown line kinds, huge lines, and a wrong type in any field. The promise: it never
 * throws, every entry it yields is well-formed, and every problem is a warning.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readClaudeCodeSession, type ReadClaudeCodeSessionOptions } from '../../../src/interop/claude-code/read-claude-code-session.js';
import { PERMISSION_MODES } from '../../../src/types/permission.js';
import { memoryPlanStore } from '../../../src/plan/memory-plan-store.js';
import { recoverPlan } from '../../../src/plan/recover-plan.js';
import { foldEntries } from '../../../src/state/fold-entries.js';
import { ENTRY_SCHEMA_VERSION, type MessageEntry, type SessionEntry } from '../../../src/state/entries.js';
import { recoverTodos } from '../../../src/todos/recover-todos.js';
import { validateTodos } from '../../../src/todos/validate-todos.js';
import { assistant, fileHistorySnapshot, result, toolUse, user } from './claude-code-lines.js';

/** Reads a text, lines (joined with newlines), or raw chunks. */
async function read(text: string | string[] | { chunks: unknown[] }, options: ReadClaudeCodeSessionOptions = {}) {
  const warnings: Array<{ message: string; lineNumber: number }> = [];
  const source = typeof text === 'string' ? text : Array.isArray(text) ? text.join('\n') : (text.chunks as never);
  const reader = readClaudeCodeSession(source, { ...options, onWarning: (warning) => warnings.push(warning) });
  const entries: SessionEntry[] = [];
  for await (const entry of reader) entries.push(entry);
  return { entries, warnings, stats: reader.stats, subagents: reader.subagents };
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** Everything a consumer relies on, checked for every entry. */
function expectWellFormed(entries: SessionEntry[]): void {
  const lastOfThread = new Map<string | undefined, string | null>();
  for (const [index, entry] of entries.entries()) {
    expect(entry.$schemaVersion).toBe(ENTRY_SCHEMA_VERSION);
    expect(entry.seq).toBe(index + 1);
    expect(isString(entry.id) && entry.id.length > 0).toBe(true);
    expect(isString(entry.timestamp)).toBe(true);
    expect(isString(entry.sessionId)).toBe(true);
    expect(entry.agentId === undefined || isString(entry.agentId)).toBe(true);
    expect(entry.parentId).toBe(lastOfThread.get(entry.agentId) ?? null);
    lastOfThread.set(entry.agentId, entry.id);
    switch (entry.kind) {
      case 'message': {
        const { role, content } = entry.message;
        expect(['user', 'assistant']).toContain(role);
        if (role === 'assistant' || typeof content !== 'string') expect(Array.isArray(content)).toBe(true);
        if (typeof content === 'string') break;
        const toolIds = new Set<string>();
        for (const block of content) {
          expect(isString(block.type)).toBe(true);
          if (block.type === 'text') expect(isString(block.text)).toBe(true);
          if (block.type === 'tool_use') {
            expect(isString(block.id) && isString(block.name)).toBe(true);
            expect(toolIds.has(block.id as string)).toBe(false);
            toolIds.add(block.id as string);
          }
          if (block.type === 'tool_result') expect(isString(block.tool_use_id)).toBe(true);
        }
        if (entry.usage) for (const count of Object.values(entry.usage)) expect(Number.isFinite(count) && count >= 0).toBe(true);
        break;
      }
      case 'todo-update':
        expect(validateTodos({ todos: entry.todos }).ok).toBe(true);
        break;
      case 'mode-change':
        expect(PERMISSION_MODES).toContain(entry.to);
        expect(PERMISSION_MODES).toContain(entry.from);
        expect(entry.from).not.toBe(entry.to);
        break;
      case 'plan-snapshot':
        expect(isString(entry.text) && isString(entry.name) && isString(entry.slug)).toBe(true);
        break;
      case 'plan-reference':
        expect(isString(entry.name)).toBe(true);
        expect(entry.text === undefined || isString(entry.text)).toBe(true);
        break;
      case 'session-meta':
        expect(isString(entry.slug)).toBe(true);
        break;
      default:
        expect(entry.kind).toBe('compact-boundary');
    }
  }
}

// ---- Generated sessions: realistic skeletons, then any field replaced by any JSON value ----

const pool = <T>(...values: T[]) => fc.constantFrom(...values);
const toolIds = pool('toolu_1', 'toolu_2', 'toolu_3');
const todoItem = fc.record({ content: pool('a', 'b', ''), status: pool('pending', 'completed', 'done'), activeForm: pool('doing', undefined) });
/** Mostly a tool with an input of its own shape; sometimes any name with any input. */
const namedInput = fc.oneof(
  fc.record({ name: pool('TodoWrite'), input: fc.record({ todos: fc.array(todoItem, { maxLength: 3 }) }) }),
  fc.record({ name: pool('TaskCreate'), input: fc.record({ subject: pool('Fix it', 'Test it'), description: pool('', 'x'), activeForm: pool(undefined, 'Fixing it') }) }),
  fc.record({ name: pool('TaskUpdate'), input: fc.record({ taskId: pool<unknown>('1', '2', 1, 'zz'), status: pool('pending', 'in_progress', 'completed', 'deleted', 'odd'), subject: pool(undefined, 'Renamed') }) }),
  fc.record({ name: pool('TaskList', 'TaskGet'), input: fc.record({ taskId: pool(undefined, '1') }) }),
  fc.record({ name: pool('ExitPlanMode', 'exit_plan_mode'), input: fc.record({ plan: pool('# Plan', '', undefined), planFilePath: pool('/h/.claude/plans/quiet-copper-lantern.md', undefined) }) }),
  fc.record({ name: pool('Task', 'Agent'), input: fc.record({ prompt: pool('Do one', 'Do two'), description: pool('d'), subagent_type: pool('Explore') }) }),
  fc.record({
    name: pool('TodoWrite', 'TaskCreate', 'TaskUpdate', 'ExitPlanMode', 'Task', 'Read'),
    input: fc.oneof(fc.jsonValue(), fc.jsonValue().map((value) => JSON.stringify(value))),
  }),
);
const mostly = <T>(usual: fc.Arbitrary<T>, rare: fc.Arbitrary<T>) => fc.oneof({ weight: 5, arbitrary: usual }, { weight: 1, arbitrary: rare });
const common = fc.record({
  // Mostly fresh uuids; sometimes one seen before (a line written twice).
  uuid: mostly(fc.uuid(), pool('u1', 'u2')),
  parentUuid: pool(null, 'u1', 'u2'),
  isSidechain: mostly(fc.constant(false), fc.constant(true)),
  agentId: mostly(fc.constant(undefined), pool('a1', 'a2')),
  sessionId: pool('s1', 's2'),
  timestamp: pool('2026-02-12T10:00:00.000Z', '2026-02-12T10:00:01.000Z'),
  slug: pool(undefined, 'quiet-copper-lantern', 'brave-amber-harbor'),
  permissionMode: pool(undefined, 'default', 'plan', 'acceptEdits', 'bypassPermissions'),
});
const skeleton = fc.oneof(
  fc.record({ c: common, text: pool('hello', 'Do one', '') }).map(({ c, text }) => ({ ...c, type: 'user', message: { role: 'user', content: text } })),
  fc.record({ c: common, id: pool('msg_1', 'msg_2', 'msg_3'), block: fc.oneof(
    fc.record({ type: pool('text'), text: pool('hi', 'there') }),
    fc.record({ type: pool('thinking'), thinking: pool('hmm'), signature: pool('sig') }),
    namedInput.chain(({ name, input }) => fc.record({ type: pool('tool_use'), id: toolIds, name: fc.constant(name), input: fc.constant(input) })),
  ), output: fc.nat(100) }).map(({ c, id, block, output }) => ({
    ...c,
    type: 'assistant',
    message: { id, role: 'assistant', content: [block], usage: { input_tokens: 1, output_tokens: output, cache_read_input_tokens: 0 } },
  })),
  fc.record({ c: common, id: toolIds, isError: fc.boolean(), toolUseResult: fc.oneof(
    fc.constant(undefined),
    fc.record({ newTodos: fc.array(fc.record({ content: pool('x'), status: pool('pending'), activeForm: pool('y') }), { maxLength: 2 }) }),
    fc.record({ task: fc.record({ id: pool('1', '2'), subject: pool('S') }) }),
    fc.record({ success: fc.boolean(), taskId: pool('1') }),
    fc.record({ tasks: fc.array(fc.record({ id: pool('1', '2'), subject: pool('S', 'T'), status: pool('pending', 'completed') }), { maxLength: 2 }) }),
    fc.record({ plan: pool('# Approved'), isAgent: fc.boolean(), filePath: pool('/h/.claude/plans/quiet-copper-lantern.md') }),
    fc.record({ agentId: pool('a1', 'a2'), status: pool('completed') }),
    fc.string(),
  ) }).map(({ c, id, isError, toolUseResult }) => ({
    ...c,
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'Task #1 created successfully: S', ...(isError ? { is_error: true } : {}) }] },
    ...(toolUseResult !== undefined ? { toolUseResult } : {}),
  })),
  common.map((c) => ({ ...c, type: 'attachment', attachment: { type: 'plan_file_reference', planFilePath: '/h/.claude/plans/x.md', planContent: '# After compaction' } })),
  common.map((c) => ({ ...c, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted' })),
  pool('default', 'plan', 'auto', 'nope').map((mode) => ({ type: 'permission-mode', permissionMode: mode, sessionId: 's1' })),
  pool('0123456789abcdef@v1', '0123456789abcdef@v2', '../../etc/passwd', null).map((backupFileName) => ({
    type: 'file-history-snapshot',
    messageId: 'm',
    snapshot: { messageId: 'm', trackedFileBackups: { '/h/.claude/plans/quiet-copper-lantern.md': { backupFileName, version: 1, backupTime: 't' } } },
    isSnapshotUpdate: false,
  })),
  common.map((c) => ({ ...c, type: 'progress', data: { type: 'agent_progress', agentId: 'a1' }, parentToolUseID: 'toolu_1' })),
  fc.string({ maxLength: 20 }).map((type) => ({ type, uuid: 'x' })),
);

/** A call and its result in one thread, the result shaped for the tool (or not). */
const fittingResult = (name: string): fc.Arbitrary<unknown> => {
  const fitting: Record<string, fc.Arbitrary<unknown>> = {
    TodoWrite: fc.record({ oldTodos: fc.constant([]), newTodos: fc.array(todoItem, { maxLength: 2 }) }),
    TaskCreate: fc.record({ task: fc.record({ id: pool<unknown>('1', '2', 3), subject: pool('Fix it') }) }),
    TaskUpdate: fc.record({ success: fc.boolean(), taskId: pool('1', '2'), updatedFields: fc.constant(['status']) }),
    TaskList: fc.record({ tasks: fc.array(fc.record({ id: pool('1', '2'), subject: pool('S', 'T'), status: pool('pending', 'completed', 'odd'), blockedBy: fc.constant([]) }), { maxLength: 2 }) }),
    TaskGet: fc.record({ task: fc.oneof(fc.constant(null), fc.record({ id: pool('1'), subject: pool('S'), status: pool('completed') })) }),
    ExitPlanMode: fc.record({ plan: pool('# Approved', ''), isAgent: fc.boolean(), filePath: pool('/h/.claude/plans/quiet-copper-lantern.md') }),
    Task: fc.record({ agentId: pool('a1', 'a2'), status: pool('completed') }),
  };
  return fc.oneof({ weight: 4, arbitrary: fitting[name] ?? fc.constant(undefined) }, { weight: 1, arbitrary: fc.jsonValue() }, { weight: 1, arbitrary: fc.constant(undefined) });
};
const pair = fc
  .record({ c: common, id: toolIds, messageId: pool('msg_1', 'msg_2', 'msg_3', 'msg_4'), call: namedInput, isError: mostly(fc.constant(false), fc.constant(true)) })
  .chain(({ c, id, messageId, call, isError }) =>
    fittingResult(call.name).map((toolUseResult) => [
      { ...c, type: 'assistant', message: { id: messageId, role: 'assistant', content: [{ type: 'tool_use', id, name: call.name, input: call.input }] } },
      {
        ...c,
        uuid: `${c.uuid}-result`,
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'Task #2 created successfully: Fix it', ...(isError ? { is_error: true } : {}) }] },
        ...(toolUseResult !== undefined ? { toolUseResult } : {}),
      },
    ]),
  );
const unit = fc.oneof({ weight: 3, arbitrary: skeleton.map((record) => [record]) }, { weight: 2, arbitrary: pair });

/** Every path to a value inside an object. */
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return [prefix];
  const keys = Array.isArray(value) ? value.map((_item, index) => index) : Object.keys(value);
  return [prefix, ...keys.flatMap((key) => paths((value as Record<string | number, unknown>)[key], [...prefix, key]))];
}

function replaceAt(root: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<string | number, unknown>;
  copy[path[0]!] = replaceAt(copy[path[0]!], path.slice(1), replacement);
  return copy;
}

const mutation = fc.record({ at: fc.nat(), value: fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.string(), fc.integer(), fc.constant(null)) });
const line = fc.record({
  records: unit,
  mutations: fc.array(mutation, { maxLength: 2 }),
  shape: fc.oneof(
    { weight: 8, arbitrary: fc.constant({ kind: 'whole' as const }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('torn' as const), cut: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('garbage' as const), text: fc.string({ maxLength: 40 }) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'twice' as const }) },
  ),
}).map(({ records, mutations, shape }) => {
  let value: unknown = records;
  for (const { at, value: replacement } of mutations) {
    const all = paths(value);
    value = replaceAt(value, all[at % all.length]!, replacement);
  }
  const text = (Array.isArray(value) ? value : [value]).map((record) => JSON.stringify(record) ?? 'undefined').join('\n');
  if (shape.kind === 'torn') return text.slice(0, shape.cut % (text.length + 1));
  if (shape.kind === 'garbage') return shape.text;
  if (shape.kind === 'twice') return `${text}\n${text}`;
  return text;
});

const backupAnswer = fc.oneof(fc.constant('# Plan from the file history'), fc.constant(undefined), fc.constant(''), fc.constant('throw'), fc.integer());

describe('readClaudeCodeSession under attack', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('never throws on generated sessions with any field of any type, yields well-formed entries, and its recoveries hold', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 5, maxLength: 40 }), fc.boolean(), backupAnswer, async (lines, tornJoin, answer) => {
        // Sometimes a torn line gets the next record appended onto it (a crash, then more writes).
        const text = tornJoin ? lines.join('\n').replace(/\n/, '') : lines.join('\n');
        const readFileBackup = () => {
          if (answer === 'throw') throw new TypeError('boom');
          return answer as string | undefined;
        };
        const { entries, warnings, stats, subagents } = await read(text, { readFileBackup });
        expectWellFormed(entries);
        expect(stats.entries).toBe(entries.length);
        expect(stats.lines).toBe(text.split('\n').length - (text.endsWith('\n') || text === '' ? 1 : 0));
        for (const warning of warnings) expect(typeof warning.message === 'string' && Number.isInteger(warning.lineNumber)).toBe(true);
        for (const [agentId, link] of subagents) expect(link.agentId).toBe(agentId);
        const todos = await recoverTodos({ entries });
        if (todos !== undefined) expect(validateTodos({ todos }).ok).toBe(true);
        const plan = await recoverPlan({ entries, store: memoryPlanStore() });
        if (plan !== undefined) expect(typeof plan.text).toBe('string');
        foldEntries(entries, { sessionId: 's' });
        for (const agentId of new Set(entries.map((entry) => entry.agentId))) foldEntries(entries, { sessionId: 's', ...(agentId !== undefined ? { agentId } : {}) });
      }),
      { numRuns: 400 },
    );
  });

  it('reports a block with a wrong type in each field it needs, and drops only that block', async () => {
    const bad = [
      { type: 'text', text: 5 },
      { type: 'thinking', thinking: 'x' },
      { type: 'redacted_thinking', data: null },
      { type: 'tool_use', id: 7, name: 'Read', input: {} },
      { type: 'tool_use', id: 'toolu_x', name: ['Read'], input: {} },
      { type: 'image', source: 'base64' },
      { type: 7 },
      'not a block',
      null,
    ];
    const lines = [
      JSON.stringify({ type: 'assistant', uuid: 'a1', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'kept' }, ...bad] } }),
      JSON.stringify({ type: 'user', uuid: 'u1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 9 }, { type: 'tool_result', tool_use_id: 't', content: 5 }, { type: 'text', text: 'kept' }] } }),
    ];
    const { entries, warnings, stats } = await read(lines);
    expect(entries.map((entry) => (entry as MessageEntry).message.content)).toEqual([[{ type: 'text', text: 'kept' }], [{ type: 'text', text: 'kept' }]]);
    expect(stats.droppedBlocks).toBe(bad.length + 2);
    expect(warnings.map((warning) => warning.lineNumber)).toEqual([1, 2]);
    expect(warnings[0]?.message).toMatch(/^Line 1: dropped 9 content blocks: a text block whose text is not a string; a thinking block without/);
  });

  it('takes wrong types in the envelope as absent: ids, session, time, sidechain, slug, usage', async () => {
    const line = JSON.stringify({
      type: 'assistant',
      uuid: 42,
      parentUuid: { x: 1 },
      sessionId: ['s'],
      timestamp: 1234,
      isSidechain: 'yes',
      agentId: 5,
      slug: { name: 'x' },
      permissionMode: null,
      message: { id: 9, role: 'assistant', content: [{ type: 'text', text: 'hi' }], usage: { input_tokens: '5', output_tokens: -3, cache_read_input_tokens: Infinity } },
    });
    const { entries } = await read([line], { sessionId: 'from-options' });
    expect(entries).toEqual([
      expect.objectContaining({ id: 'claude-code-line-0', seq: 1, sessionId: 'from-options', timestamp: '1970-01-01T00:00:00.000Z', kind: 'message', usage: { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } }),
    ]);
    expect(entries[0]?.agentId).toBeUndefined();
    expect((entries[0] as MessageEntry).messageId).toBeUndefined();
  });

  it('skips a line written twice, merges a message repeated line by line once, and refuses a message id that comes back later', async () => {
    const first = assistant('msg_A', { type: 'text', text: 'Reading.' });
    const second = assistant('msg_A', toolUse('toolu_1', 'Read', { file_path: 'a' }));
    // Claude Code sometimes writes a message's lines again (new uuids, same blocks).
    const again = assistant('msg_A', toolUse('toolu_1', 'Read', { file_path: 'a' }));
    const lines = [first, first, second, again, result('toolu_1', 'contents'), assistant('msg_B', { type: 'text', text: 'Done.' }), assistant('msg_A', { type: 'text', text: 'late' })];
    const { entries, stats, warnings } = await read(lines);
    const messages = entries as MessageEntry[];
    expect(messages.map((entry) => entry.message.content.length)).toEqual([2, 1, 1]);
    expect(messages.filter((entry) => entry.messageId === 'msg_A')).toHaveLength(1);
    expect(stats.duplicateLines).toBe(3);
    expect(stats.mergedLines).toBe(1);
    expect(warnings).toEqual([expect.objectContaining({ lineNumber: 7, message: expect.stringMatching(/message msg_A, which was already complete/) })]);
  });

  it('counts unknown line kinds by name, odd names as "other", and never touches Object.prototype', async () => {
    const kinds = ['summary', 'custom-title', '__proto__', 'constructor', 'x'.repeat(500), 'a b', 'pr-link'];
    const { stats } = await read(kinds.map((type) => JSON.stringify({ type })));
    expect(stats.skippedByKind).toEqual({ summary: 1, 'custom-title': 1, other: 3, constructor: 1, 'pr-link': 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(stats.skippedByKind)).toBe(Object.prototype);
    const many = await read(Array.from({ length: 400 }, (_value, index) => JSON.stringify({ type: `kind-${index}` })));
    expect(Object.keys(many.stats.skippedByKind)).toHaveLength(201);
    expect(many.stats.skippedByKind.other).toBe(200);
  });

  it('reads huge lines, and searches a huge torn line within a bounded number of parsed characters', async () => {
    const big = 'x'.repeat(5_000_000);
    const huge = user(big);
    expect(((await read([huge, user('after')])).entries[0] as MessageEntry).message.content).toBe(big);

    // A torn line full of '{"' with a record appended: found from the end, cheaply.
    const torn = `{"type":"assistant","message":{"content":[${'{"a":1},'.repeat(200_000)}`;
    const parse = vi.spyOn(JSON, 'parse');
    const { entries, stats } = await read([`${torn}${user('appended')}`, user('next')]);
    expect(entries.map((entry) => (entry as MessageEntry).message.content)).toEqual(['appended', 'next']);
    expect(stats.malformedLines).toBe(1);
    const parsedChars = parse.mock.calls.reduce((sum, [text]) => sum + String(text).length, 0);
    expect(parsedChars).toBeLessThan(3 * (torn.length + 1000));

    // Nothing to recover: the attempts stop at the budget instead of parsing every suffix.
    parse.mockClear();
    const garbage = '{"'.repeat(2_000_000);
    const nothing = await read([garbage]);
    expect(nothing.stats.malformedLines).toBe(1);
    const garbageChars = parse.mock.calls.reduce((sum, [text]) => sum + String(text).length, 0);
    expect(garbageChars).toBeLessThanOrEqual(garbage.length + Math.max(8 * 1024 * 1024, 4 * garbage.length));
  });

  it('recovers the record after a line torn inside a multi-byte character', async () => {
    const full = user('Ünïcödé 😀 text');
    const cut = new TextEncoder().encode(full).slice(0, full.length - 8);
    const bytes = new Uint8Array([...cut, ...new TextEncoder().encode(`${user('whole')}\n`)]);
    const { entries, warnings } = await read({ chunks: [bytes] });
    expect(entries.map((entry) => (entry as MessageEntry).message.content)).toEqual(['whole']);
    expect(warnings).toHaveLength(1);
  });

  it('refuses non-text chunks with a ConfigurationError, not a TypeError', async () => {
    await expect(read({ chunks: [42] })).rejects.toThrow(/reads chunks or lines of text or UTF-8 bytes, got number/);
    await expect(read({ chunks: [{}] }, { lines: true })).rejects.toThrow(/got object/);
    expect(() => readClaudeCodeSession('', { readFileBackup: 'yes' as never })).toThrow(/`readFileBackup` must be a function/);
  });

  it('does not hold plan backups for a reader that does not read them', async () => {
    const { entries, stats } = await read([user('x', { slug: 'quiet-copper-lantern' }), fileHistorySnapshot({ '/h/plans/quiet-copper-lantern.md': { backupFileName: 'abc@v1', version: 1 } })]);
    expect(entries.map((entry) => entry.kind)).toEqual(['session-meta', 'message']);
    expect(stats.skippedByKind).toEqual({ 'file-history-snapshot': 1 });
  });
});
