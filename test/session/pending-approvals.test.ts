import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type SessionEntry } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { ConfigurationError } from '../../src/errors/index.js';
import { foldPendingApprovals, isCurrentPendingApprovals, PENDING_APPROVALS_RULE } from '../../src/session/pending-approvals.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';

const idsOf = (entries: readonly SessionEntry[]) => foldPendingApprovals(undefined, entries).approvals.map((approval) => approval.id);

describe('foldPendingApprovals', () => {
  it('opens an approval on approval-pending and closes it on approval-resolved, a tool result, or a user message', () => {
    const make = entryMaker('s');
    const opened = [make.userText('go'), make.assistantCalls('t1', 't2', 't3'), make.approvalPending('a1', 't1'), make.approvalPending('a2', 't2'), make.approvalPending('a3', 't3')];
    expect(idsOf(opened)).toEqual(['a1', 'a2', 'a3']);
    expect(idsOf([...opened, make.approvalResolved('a2', 't2')])).toEqual(['a1', 'a3']);
    const afterResult = [...opened, make.toolResult('t1', 'refused')];
    expect(idsOf(afterResult)).toEqual(['a2', 'a3']);
    expect(idsOf([...afterResult, make.userText('something else')])).toEqual([]);
  });

  it('keeps approvals through an assistant message, tool state and other kinds', () => {
    const make = entryMaker('s');
    const entries = [
      make.assistantCalls('t1'),
      make.approvalPending('a1', 't1'),
      make.toolState('k', 1),
      make.next({ kind: 'mode-change', from: 'default', to: 'plan', reason: 'host' }),
      make.next({ kind: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'still waiting' }] } }),
      make.toolResult('other-call', 'unrelated'),
      make.approvalResolved('other-approval', 'other-call'),
    ];
    expect(idsOf(entries)).toEqual(['a1']);
  });

  it('moves an approval asked again to the end, and keeps the latest copy', () => {
    const make = entryMaker('s');
    const again = { ...make.approvalPending('a1', 't1') } as Extract<SessionEntry, { kind: 'approval-pending' }>;
    const asked = [make.approvalPending('a1', 't1'), make.approvalPending('a2', 't2'), { ...again, approval: { ...again.approval, input: { edited: true } } }];
    const state = foldPendingApprovals(undefined, asked);
    expect(state.approvals.map((approval) => approval.id)).toEqual(['a2', 'a1']);
    expect(state.approvals[1]!.input).toEqual({ edited: true });
  });

  it("closes only the writing agent's approvals on a user message: a subagent's stay open through the parent's and back", () => {
    const make = entryMaker('s');
    const entries = [make.approvalPending('parent', 't1'), make.approvalPending('child', 't2', 'agent-1')];
    expect(idsOf([...entries, make.userText('parent user message')])).toEqual(['child']);
    const childMessage = make.next({ kind: 'message', message: { role: 'user', content: 'sub' }, agentId: 'agent-1' });
    expect(idsOf([...entries, childMessage])).toEqual(['parent']);
  });

  it('returns the same state object when nothing changed, a new one otherwise; never changes its input', () => {
    const make = entryMaker('s');
    const state = foldPendingApprovals(undefined, [make.approvalPending('a1', 't1')]);
    const frozen = structuredClone(state);
    expect(foldPendingApprovals(state, [make.toolState('k', 1), make.toolResult('t9', 'x')])).toBe(state);
    const next = foldPendingApprovals(state, [make.approvalResolved('a1', 't1')]);
    expect(next).not.toBe(state);
    expect(next.approvals).toEqual([]);
    expect(state).toEqual(frozen);
  });

  it('refuses to continue a state made by another rule, and says so', () => {
    expect(() => foldPendingApprovals({ rule: PENDING_APPROVALS_RULE + 1, approvals: [] }, [])).toThrow(ConfigurationError);
    expect(() => foldPendingApprovals({ rule: 0, approvals: [] }, [])).toThrow(/fold the session's entries from the start/);
    expect(isCurrentPendingApprovals({ rule: PENDING_APPROVALS_RULE, approvals: [] })).toBe(true);
    for (const bad of [null, 1, 'x', {}, { rule: PENDING_APPROVALS_RULE }, { rule: PENDING_APPROVALS_RULE, approvals: [null] }, { rule: PENDING_APPROVALS_RULE, approvals: [{ id: 1 }] }, { rule: 0, approvals: [] }]) {
      expect(isCurrentPendingApprovals(bad)).toBe(false);
    }
  });

  it('folds incrementally to the same state as all at once, wherever the transcript is cut (property)', () => {
    const calls = ['t1', 't2', 't3', 't4'];
    const agents = [undefined, 'agent-1'];
    const step = fc.oneof(
      fc.record({ kind: fc.constant('pending' as const), call: fc.constantFrom(...calls), agent: fc.constantFrom(...agents) }),
      fc.record({ kind: fc.constant('resolved' as const), call: fc.constantFrom(...calls) }),
      fc.record({ kind: fc.constant('result' as const), call: fc.constantFrom(...calls) }),
      fc.record({ kind: fc.constant('user' as const), agent: fc.constantFrom(...agents) }),
      fc.record({ kind: fc.constant('other' as const) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.nat(), (steps, cutAt) => {
        const make = entryMaker('p');
        const entries = steps.map((item) => {
          switch (item.kind) {
            case 'pending':
              return make.approvalPending(`approval-${item.call}`, item.call, item.agent);
            case 'resolved':
              return make.approvalResolved(`approval-${item.call}`, item.call);
            case 'result':
              return make.toolResult(item.call, 'done');
            case 'user':
              return make.next({ kind: 'message', message: { role: 'user', content: 'u' }, ...(item.agent ? { agentId: item.agent } : {}) });
            default:
              return make.toolState('k', 1);
          }
        });
        const cut = entries.length === 0 ? 0 : cutAt % (entries.length + 1);
        const whole = foldPendingApprovals(undefined, entries);
        const inTwo = foldPendingApprovals(foldPendingApprovals(undefined, entries.slice(0, cut)), entries.slice(cut));
        const oneByOne = entries.reduce((state, entry) => foldPendingApprovals(state, [entry]), foldPendingApprovals(undefined, []));
        expect(inTwo).toEqual(whole);
        expect(oneByOne).toEqual(whole);
        // Each call has at most one open approval, and only calls that were asked.
        const open = whole.approvals.map((approval) => approval.toolUseId);
        expect(new Set(open).size).toBe(open.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('listPending() and a live agent', () => {
  const writeNote = defineTool({ name: 'write_note', description: 'Writes a note.', inputSchema: z.object({ name: z.string() }), execute: ({ input }) => `wrote ${input.name}` });

  it("agrees with the agent's pending approvals through defer, resolve and the next turn", async () => {
    const store = memorySessionStore();
    const model = scriptedModel([turn(toolCall('write_note', { name: 'a.md' }, 'call_a'), toolCall('write_note', { name: 'b.md' }, 'call_b')), 'Both written.', turn(toolCall('write_note', { name: 'c.md' }, 'call_c')), 'Done.']);
    const agent = createAgent({ model, tools: [writeNote], store });
    const listed = async () => (await store.listPending!()).flatMap((session) => session.approvals.map((approval) => [session.sessionId, approval.id]));
    const ours = () => agent.pendingApprovals.map((approval) => [agent.sessionId, approval.id]);

    expect((await agent.run('Write two notes.').result).status).toBe('awaiting-approval');
    expect(await listed()).toEqual(ours());
    expect(await listed()).toHaveLength(2);
    expect((await store.listPending!())[0]!.approvals).toEqual(agent.pendingApprovals);

    const [first, second] = agent.pendingApprovals;
    await agent.resolveApproval(first!.id, { behavior: 'allow' }).result;
    expect(await listed()).toEqual([[agent.sessionId, second!.id]]);
    expect(await listed()).toEqual(ours());
    expect((await agent.resolveApproval(second!.id, { behavior: 'deny', message: 'Not b.' }).result).status).toBe('completed');
    expect(await listed()).toEqual([]);

    expect((await agent.run('One more.').result).status).toBe('awaiting-approval');
    expect(await listed()).toEqual(ours());
    // Resuming from the store sees the same approvals the inbox lists.
    await agent.close();
    const resumed = createAgent({ model, tools: [writeNote], store, resume: agent.sessionId });
    await resumed.ready;
    expect((await store.listPending!())[0]!.approvals).toEqual(resumed.pendingApprovals);
  });
});
