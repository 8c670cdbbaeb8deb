import { describe, expect, it } from 'vitest';
import { applyEntry, createSessionState, settleLoadedState, type EntryDraft, type SessionState } from '../../src/state/index.js';

const fold = (drafts: EntryDraft[], state: SessionState = createSessionState({ sessionId: 's' })) => drafts.reduce(applyEntry, state);
const use = (id: string, name = 'write') => ({ type: 'tool_use' as const, id, name, input: { id } });
const result = (id: string) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'ok' });
const assistant = (...ids: string[]): EntryDraft => ({ kind: 'message', message: { role: 'assistant', content: ids.map((id) => use(id)) } });
const approval = (id: string) => ({ id: `approval_${id}`, toolName: 'write', input: { id }, toolUseId: id, reason: { type: 'default' as const }, suggestions: [], createdAt: '2026-12-01T00:00:00.000Z' });

describe('applyEntry', () => {
  it('opens a batch for an assistant message and closes it with the next user message, which also takes the reminders', () => {
    const state = fold([
      { kind: 'reminder', text: 'Mode is now plan.' },
      { kind: 'message', message: { role: 'user', content: 'go' } },
      assistant('a', 'b'),
    ]);
    expect(state.pendingReminders).toEqual([]);
    expect(state.openBatch!.calls.map((call) => [call.toolUseId, call.state])).toEqual([
      ['a', 'undecided'],
      ['b', 'undecided'],
    ]);
    const closed = fold([{ kind: 'message', message: { role: 'user', content: [result('a'), result('b')] } }], state);
    expect(closed.openBatch).toBeUndefined();
  });

  it('gives each call of an assistant message the MCP tool its message recorded for it, from own keys only, and keeps it until the batch closes', () => {
    // As a stored transcript parses: a key "__proto__" is an own key, and a value may be anything.
    const mcpTools = JSON.parse('{"a":{"server":"db","tool":"archive","endpoint":"00"},"__proto__":{"server":"x","tool":"y"},"c":null}');
    const state = fold([{ kind: 'message', message: { role: 'user', content: 'go' } }, { kind: 'message', message: { role: 'assistant', content: [use('a'), use('__proto__'), use('c'), use('toString')] }, mcpTools }]);
    const [a, proto, c, toString] = state.openBatch!.calls;
    expect(a!.mcpTool).toEqual({ server: 'db', tool: 'archive', endpoint: '00' });
    expect(a!.mcpTool).not.toBe(mcpTools.a);
    expect(proto!.mcpTool).toEqual({ server: 'x', tool: 'y' });
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(c!.mcpTool).toBeUndefined();
    expect(toString!.mcpTool).toBeUndefined();
    fold([{ kind: 'approval-pending', approval: approval('a') }], state);
    expect(a!.mcpTool).toEqual({ server: 'db', tool: 'archive', endpoint: '00' });
    fold([{ kind: 'tool-result', toolUseId: 'a', toolName: 'write', result: result('a') }], state);
    expect(a!.mcpTool).toEqual({ server: 'db', tool: 'archive', endpoint: '00' });
  });

  it('moves calls through their states: allowed, deferred, suspended, done', () => {
    const state = fold([{ kind: 'message', message: { role: 'user', content: 'go' } }, assistant('a', 'b', 'c')]);
    fold(
      [
        { kind: 'call-allowed', toolUseId: 'a', input: { id: 'a' }, note: 'edited' },
        { kind: 'approval-pending', approval: approval('b') },
        { kind: 'call-allowed', toolUseId: 'c', input: { id: 'c' } },
        { kind: 'call-suspended', toolUseId: 'c', nested: { agentId: 'child', state: createSessionState({ sessionId: 'child-s' }) } },
        { kind: 'tool-result', toolUseId: 'a', toolName: 'write', result: result('a') },
      ],
      state,
    );
    expect(state.openBatch!.calls.map((call) => call.state)).toEqual(['done', 'deferred', 'suspended']);
    expect(state.openBatch!.calls[0]).toEqual({ toolUseId: 'a', toolName: 'write', state: 'done', result: result('a') });
  });

  it('joins a continuation (after pause_turn) into the last assistant message, summing its usage, keeping known calls', () => {
    const usage = { inputTokens: 1, outputTokens: 2, cacheReadInputTokens: 3, cacheCreationInputTokens: 4 };
    const state = fold([
      { kind: 'message', message: { role: 'user', content: 'go' } },
      { kind: 'message', message: { role: 'assistant', content: [use('a')] }, usage },
      { kind: 'call-allowed', toolUseId: 'a', input: {} },
      { kind: 'message', message: { role: 'assistant', content: [use('b')] }, usage },
    ]);
    expect(state.messages).toHaveLength(2);
    expect(state.messageUsage).toEqual([null, { inputTokens: 2, outputTokens: 4, cacheReadInputTokens: 6, cacheCreationInputTokens: 8 }]);
    expect(state.openBatch!.calls.map((call) => call.state)).toEqual(['allowed', 'undecided']);
  });

  it('ignores entries about calls the batch does not have, and a checkpoint replaces everything with a copy', () => {
    const state = fold([{ kind: 'tool-result', toolUseId: 'ghost', toolName: 'x', result: result('ghost') }]);
    expect(state.openBatch).toBeUndefined();
    const seed = createSessionState({ sessionId: 'seeded', permissionMode: 'plan' });
    const replaced = applyEntry(state, { kind: 'checkpoint', state: seed, reason: 'fork' });
    expect(replaced).toEqual(seed);
    expect(replaced).not.toBe(seed);
  });

  it('replaces and removes session rules', () => {
    const state = fold([
      { kind: 'rules-added', behavior: 'allow', rules: ['Read', 'Write'] },
      { kind: 'rules-changed', behavior: 'allow', operation: 'remove', rules: ['Read'] },
    ]);
    expect(state.sessionRules.allow).toEqual(['Write']);
    fold([{ kind: 'rules-changed', behavior: 'deny', operation: 'replace', rules: ['Bash'] }], state);
    expect(state.sessionRules.deny).toEqual(['Bash']);
  });
});

describe('settleLoadedState', () => {
  it('answers allowed calls before the first waiting call and sends those after it back to undecided', () => {
    const state = fold([
      { kind: 'message', message: { role: 'user', content: 'go' } },
      assistant('a', 'b', 'c', 'd'),
      { kind: 'call-allowed', toolUseId: 'a', input: {} },
      { kind: 'approval-pending', approval: approval('b') },
      { kind: 'call-allowed', toolUseId: 'c', input: {} },
    ]);
    const drafts = settleLoadedState(state);
    expect(drafts.map((draft) => [draft.kind, 'toolUseId' in draft ? draft.toolUseId : undefined])).toEqual([
      ['tool-result', 'a'],
      ['call-reset', 'c'],
    ]);
    const after = fold(drafts, state);
    expect(after.openBatch!.calls.map((call) => call.state)).toEqual(['done', 'deferred', 'undecided', 'undecided']);
    expect(settleLoadedState(after)).toEqual([]);
  });

  it('sets and ends the automatic compaction pause; a state without the entry is not paused', () => {
    const state = fold([{ kind: 'message', message: { role: 'user', content: 'go' } }]);
    expect(state.autoCompactionResumesAt).toBeUndefined();
    fold([{ kind: 'compaction-pause', resumesAt: 4_200 }], state);
    expect(state.autoCompactionResumesAt).toBe(4_200);
    fold([{ kind: 'compaction-pause' }], state);
    expect('autoCompactionResumesAt' in state).toBe(false);
  });
});
