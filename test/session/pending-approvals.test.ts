import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type SessionEntry } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { ConfigurationError } from '../../src/errors/index.js';
import { foldPendingApprovals, isCurrentPendingApprovals, PENDING_APPROVALS_RULE, pendingApprovalsIn } from '../../src/session/pending-approvals.js';
import { pendingApprovalsOf } from '../../src/state/batch.js';
import { foldEntries } from '../../src/state/fold-entries.js';
import type { SessionState } from '../../src/state/session-state.js';
import { entryMaker, type EntryMaker } from '../../src/testing/store-conformance/conformance-entries.js';

const listed = (entries: readonly SessionEntry[]) => pendingApprovalsIn(foldPendingApprovals(undefined, entries));
const idsOf = (entries: readonly SessionEntry[]) => listed(entries).map((approval) => approval.id);

/** A subagent's state waiting on one approval of its own. */
function nestedWaiting(approvalId: string, toolUseId: string): SessionState {
  const make = entryMaker('nested');
  return foldEntries([make.userText('sub task'), make.assistantCalls(toolUseId), make.approvalPending(approvalId, toolUseId)], { sessionId: 'nested' });
}

const callAllowed = (make: EntryMaker, toolUseId: string) => make.next({ kind: 'call-allowed', toolUseId, input: {} });
const suspended = (make: EntryMaker, toolUseId: string, nested: SessionState) => make.next({ kind: 'call-suspended', toolUseId, nested: { agentId: 'sub-1', state: nested } });

describe('foldPendingApprovals', () => {
  it('opens an approval for a call of the open batch and closes it on call-allowed, a tool result or a user message', () => {
    const make = entryMaker('s');
    const opened = [make.userText('go'), make.assistantCalls('t1', 't2', 't3'), make.approvalPending('a1', 't1'), make.approvalPending('a2', 't2'), make.approvalPending('a3', 't3')];
    expect(listed(opened).map((approval) => [approval.id, approval.path])).toEqual([
      ['a1', ['t1']],
      ['a2', ['t2']],
      ['a3', ['t3']],
    ]);
    expect(idsOf([...opened, make.approvalResolved('a2', 't2'), callAllowed(make, 't2')])).toEqual(['a1', 'a3']);
    expect(idsOf([...opened, make.toolResult('t1', 'refused')])).toEqual(['a2', 'a3']);
    expect(idsOf([...opened, make.userText('something else')])).toEqual([]);
  });

  it('lists approvals in tool_use order, whenever they were asked, and ignores calls outside the batch', () => {
    const make = entryMaker('s');
    const entries = [make.assistantCalls('t1', 't2'), make.approvalPending('a2', 't2'), make.approvalPending('a1', 't1'), make.approvalPending('stray', 'not-a-call')];
    expect(idsOf(entries)).toEqual(['a1', 'a2']);
  });

  it('keeps an approval whose answer was recorded without the entry that applies it (a process stopped between the two), as the session does', () => {
    const make = entryMaker('s');
    const entries = [make.userText('go'), make.assistantCalls('t1'), make.approvalPending('a1', 't1'), make.approvalResolved('a1', 't1')];
    expect(idsOf(entries)).toEqual(['a1']);
    expect(listed(entries)).toEqual(pendingApprovalsOf(foldEntries(entries, { sessionId: 's' })));
    // Version 1 recorded an allow with approval-resolved alone: it still ends the wait.
    const version1 = [...entries.slice(0, 3), { ...make.approvalResolved('a1', 't1'), $schemaVersion: 1 } as SessionEntry];
    expect(idsOf(version1)).toEqual([]);
    expect(pendingApprovalsOf(foldEntries(version1, { sessionId: 's' }))).toEqual([]);
  });

  it("follows a subagent's own entries into the nested run a suspended call waits on, at any depth, as foldEntries does", () => {
    const make = entryMaker('s');
    const sub = (draft: Parameters<EntryMaker['next']>[0]) => make.next({ ...draft, agentId: 'sub-1' });
    const entries = [make.userText('go'), make.assistantCalls('t1'), suspended(make, 't1', nestedWaiting('inner-1', 'c1'))];
    const continued = [
      ...entries,
      // The host answered inner-1: the subagent's run went on in its sidechain, then the process stopped.
      sub({ kind: 'approval-resolved', approvalId: 'inner-1', toolUseId: 'c1', decision: { behavior: 'allow' } }),
      sub({ kind: 'call-allowed', toolUseId: 'c1', input: {} }),
      sub({ kind: 'tool-result', toolUseId: 'c1', toolName: 'Write', result: { type: 'tool_result', tool_use_id: 'c1', content: 'ok' } }),
      sub({ kind: 'message', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'ok' }] } }),
      sub({ kind: 'message', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'c2', name: 'Write', input: {} }] } }),
      sub({ kind: 'approval-pending', approval: { ...nestedWaiting('inner-2', 'c2').openBatch!.calls[0]!.approval!, agentId: 'sub-1' } }),
    ];
    for (let cut = entries.length; cut <= continued.length; cut++) {
      const prefix = continued.slice(0, cut);
      expect(listed(prefix)).toEqual(pendingApprovalsOf(foldEntries(prefix, { sessionId: 's' })));
    }
    expect(listed(continued).map((approval) => [approval.id, approval.path])).toEqual([['inner-2', ['t1', 'c2']]]);
    // Entries of a subagent no call waits on are its transcript only.
    expect(idsOf([...entries, make.next({ kind: 'message', message: { role: 'user', content: 'hi' }, agentId: 'sub-9' })])).toEqual(['inner-1']);
  });

  it('keeps what calls wait on through an assistant message that continues the last one, and through other kinds', () => {
    const make = entryMaker('s');
    const entries = [
      make.assistantCalls('t1'),
      make.approvalPending('a1', 't1'),
      make.toolState('k', 1),
      make.next({ kind: 'mode-change', from: 'default', to: 'plan', reason: 'host' }),
      make.next({ kind: 'message', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'Write', input: {} }] } }),
      make.approvalPending('a2', 't2'),
      make.toolResult('other-call', 'unrelated'),
      make.approvalResolved('other-approval', 'other-call'),
    ];
    expect(idsOf(entries)).toEqual(['a1', 'a2']);
  });

  it("lists a suspended call's nested approvals with their path, and drops them when the call is answered", () => {
    const make = entryMaker('s');
    const entries = [make.assistantCalls('t1', 't2'), suspended(make, 't1', nestedWaiting('inner', 'sub-call')), make.approvalPending('a2', 't2')];
    expect(listed(entries).map((approval) => [approval.id, approval.path])).toEqual([
      ['inner', ['t1', 'sub-call']],
      ['a2', ['t2']],
    ]);
    expect(idsOf([...entries, make.toolResult('t1', 'the subagent finished')])).toEqual(['a2']);
  });

  it('starts over from a checkpoint, and passes over entries of other agents', () => {
    const before = entryMaker('s');
    const state = foldEntries([before.userText('go'), before.assistantCalls('t1'), before.approvalPending('a1', 't1')], { sessionId: 's' });
    const make = entryMaker('s');
    const entries = [make.assistantCalls('old'), make.approvalPending('old-approval', 'old'), make.next({ kind: 'checkpoint', state, reason: 'fork' })];
    expect(listed(entries).map((approval) => [approval.id, approval.path])).toEqual([['a1', ['t1']]]);
    const sidechain = make.next({ kind: 'message', message: { role: 'user', content: 'a subagent talking' }, agentId: 'sub-1' });
    expect(idsOf([...entries, sidechain])).toEqual(['a1']);
  });

  it('returns the same state object when nothing changed, a new one otherwise; never changes its input', () => {
    const make = entryMaker('s');
    const state = foldPendingApprovals(undefined, [make.assistantCalls('t1'), make.approvalPending('a1', 't1')]);
    const frozen = structuredClone(state);
    expect(foldPendingApprovals(state, [make.toolState('k', 1), make.toolResult('t9', 'x'), make.approvalResolved('a9', 't1'), make.approvalResolved('a1', 't1')])).toBe(state);
    const next = foldPendingApprovals(state, [callAllowed(make, 't1')]);
    expect(next).not.toBe(state);
    expect(pendingApprovalsIn(next)).toEqual([]);
    expect(state).toEqual(frozen);
  });

  it('refuses to continue a state made by another rule, and says so', () => {
    expect(() => foldPendingApprovals({ rule: PENDING_APPROVALS_RULE + 1, calls: [] }, [])).toThrow(ConfigurationError);
    expect(() => foldPendingApprovals({ rule: 0, calls: [] }, [])).toThrow(/fold the session's entries from the start/);
    expect(isCurrentPendingApprovals({ rule: PENDING_APPROVALS_RULE, calls: [] })).toBe(true);
    expect(isCurrentPendingApprovals(foldPendingApprovals(undefined, [entryMaker('s').assistantCalls('t')]))).toBe(true);
    for (const bad of [
      null,
      1,
      'x',
      {},
      { rule: PENDING_APPROVALS_RULE },
      { rule: PENDING_APPROVALS_RULE, calls: [null] },
      { rule: PENDING_APPROVALS_RULE, calls: [{ toolUseId: 't', approvals: [{ id: 1 }] }] },
      { rule: PENDING_APPROVALS_RULE, calls: [], lastRole: 'system' },
      { rule: 0, calls: [] },
    ]) {
      expect(isCurrentPendingApprovals(bad)).toBe(false);
    }
  });

  // Transcripts the way an agent writes them: batches of calls, each call waiting, suspended,
  // allowed, answered or resolved (with the entry that follows an answer), user messages,
  // continuations and checkpoints.
  const action = fc.oneof(
    fc.record({ kind: fc.constant('batch' as const), size: fc.integer({ min: 1, max: 3 }), continues: fc.boolean() }),
    fc.record({ kind: fc.constantFrom('defer' as const, 'suspend' as const, 'allow' as const, 'result' as const, 'resolve-allow' as const, 'resolve-deny' as const, 'nested-step' as const), call: fc.nat(2) }),
    fc.record({ kind: fc.constantFrom('user' as const, 'checkpoint' as const, 'other' as const) }),
  );
  type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

  function transcriptOf(actions: Action[]): SessionEntry[] {
    const make = entryMaker('p');
    const entries: SessionEntry[] = [make.userText('go')];
    let batch: string[] = [];
    let calls = 0;
    for (const item of actions) {
      const call = 'call' in item ? (batch[item.call % Math.max(batch.length, 1)] ?? 'no-call') : 'no-call';
      switch (item.kind) {
        case 'batch': {
          const ids = Array.from({ length: item.size }, () => `c${(calls += 1)}`);
          if (!item.continues && entries.at(-1)?.kind === 'message') entries.push(make.userText('next'));
          entries.push(make.assistantCalls(...ids));
          batch = item.continues ? [...batch, ...ids] : ids;
          break;
        }
        case 'defer':
          entries.push(make.approvalPending(`approval-${call}-${entries.length}`, call));
          break;
        case 'suspend':
          entries.push(make.next({ kind: 'call-suspended', toolUseId: call, nested: { agentId: `agent-${call}`, state: nestedWaiting(`inner-${call}-${entries.length}`, `sub-${call}-${entries.length}`) } }));
          break;
        case 'nested-step': {
          // The subagent a call waits on goes on in its sidechain: its waiting call is answered,
          // and it asks again (the parent's call-suspended would follow, unless the process stopped).
          const agentId = `agent-${call}`;
          const sub = (draft: Parameters<EntryMaker['next']>[0]) => make.next({ ...draft, agentId });
          const inner = `sub-${call}-${entries.length}`;
          entries.push(
            sub({ kind: 'tool-result', toolUseId: `sub-${call}`, toolName: 'Write', result: { type: 'tool_result', tool_use_id: `sub-${call}`, content: 'ok' } }),
            sub({ kind: 'message', message: { role: 'user', content: [{ type: 'text', text: 'results' }] } }),
            sub({ kind: 'message', message: { role: 'assistant', content: [{ type: 'tool_use', id: inner, name: 'Write', input: {} }] } }),
            sub({ kind: 'approval-pending', approval: { ...nestedWaiting(`inner-${inner}`, inner).openBatch!.calls[0]!.approval!, agentId } }),
          );
          break;
        }
        case 'allow':
          entries.push(callAllowed(make, call));
          break;
        case 'result':
          entries.push(make.toolResult(call, 'done'));
          break;
        case 'resolve-allow':
        case 'resolve-deny': {
          const waiting = listed(entries).find((approval) => approval.toolUseId === call);
          if (!waiting) break;
          entries.push(make.approvalResolved(waiting.id, call));
          entries.push(item.kind === 'resolve-allow' ? callAllowed(make, call) : make.toolResult(call, 'denied'));
          break;
        }
        case 'user':
          entries.push(make.userText('u'));
          batch = [];
          break;
        case 'checkpoint':
          entries.push(make.next({ kind: 'checkpoint', state: foldEntries(entries, { sessionId: 'p' }), reason: 'compaction' }));
          break;
        default:
          entries.push(make.toolState('k', entries.length));
      }
    }
    return entries;
  }

  it('lists what the session state lists: the same approvals, paths and order as pendingApprovalsOf(foldEntries(...)), wherever the transcript stops (property)', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
        const entries = transcriptOf(actions);
        // A process can stop between any two appends: every prefix is a transcript.
        for (let cut = 0; cut <= entries.length; cut++) {
          const prefix = entries.slice(0, cut);
          expect(listed(prefix)).toEqual(pendingApprovalsOf(foldEntries(prefix, { sessionId: 'p' })));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('folds incrementally to the same state as all at once, wherever the transcript is cut (property)', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), fc.nat(), (actions, cutAt) => {
        const entries = transcriptOf(actions);
        const cut = cutAt % (entries.length + 1);
        const whole = foldPendingApprovals(undefined, entries);
        expect(foldPendingApprovals(foldPendingApprovals(undefined, entries.slice(0, cut)), entries.slice(cut))).toEqual(whole);
        expect(entries.reduce((state, entry) => foldPendingApprovals(state, [entry]), foldPendingApprovals(undefined, []))).toEqual(whole);
        // What a store saves comes back as a state it can continue from.
        expect(isCurrentPendingApprovals(JSON.parse(JSON.stringify(whole)))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('listPending() and a live agent', () => {
  const writeNote = defineTool({ name: 'write_note', description: 'Writes a note.', inputSchema: z.object({ name: z.string() }), execute: ({ input }) => `wrote ${input.name}` });

  it("agrees with the agent's pending approvals through defer, resolve and the next turn", async () => {
    const store = memorySessionStore();
    const model = scriptedModel([turn(toolCall('write_note', { name: 'a.md' }, 'call_a'), toolCall('write_note', { name: 'b.md' }, 'call_b')), 'Both written.', turn(toolCall('write_note', { name: 'c.md' }, 'call_c')), 'Done.']);
    const agent = createAgent({ model, tools: [writeNote], store });
    const listedNow = async () => (await store.listPending!()).flatMap((session) => session.approvals.map((approval) => [session.sessionId, approval.id]));
    const ours = () => agent.pendingApprovals.map((approval) => [agent.sessionId, approval.id]);

    expect((await agent.run('Write two notes.').result).status).toBe('awaiting-approval');
    expect(await listedNow()).toEqual(ours());
    expect(await listedNow()).toHaveLength(2);
    expect((await store.listPending!())[0]!.approvals).toEqual(agent.pendingApprovals);

    const [first, second] = agent.pendingApprovals;
    await agent.resolveApproval(first!.id, { behavior: 'allow' }).result;
    expect(await listedNow()).toEqual([[agent.sessionId, second!.id]]);
    expect(await listedNow()).toEqual(ours());
    expect((await agent.resolveApproval(second!.id, { behavior: 'deny', message: 'Not b.' }).result).status).toBe('completed');
    expect(await listedNow()).toEqual([]);

    expect((await agent.run('One more.').result).status).toBe('awaiting-approval');
    expect(await listedNow()).toEqual(ours());
    // Resuming from the store sees the same approvals the inbox lists.
    await agent.close();
    const resumed = createAgent({ model, tools: [writeNote], store, resume: agent.sessionId });
    await resumed.ready;
    expect((await store.listPending!())[0]!.approvals).toEqual(resumed.pendingApprovals);
  });
});
