import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type AgentOptions, type SessionEntry, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

/**
 * A store whose process "dies" at the first append carrying an entry of `kind` once armed: that
 * append and every later one are lost, as when a process stops between two appends.
 */
function dyingAt(inner: SessionStore, kind: SessionEntry['kind']) {
  let armed = false;
  let dead = false;
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      if (key !== 'append') return Reflect.get(target, key, receiver);
      return async (...args: Parameters<SessionStore['append']>) => {
        if (dead || (armed && args[1].some((entry) => entry.kind === kind))) {
          dead = true;
          throw new Error('the process stopped');
        }
        return target.append(...args);
      };
    },
  }) as SessionStore;
  return { store, arm: () => void (armed = true) };
}

function writer() {
  const runs: string[] = [];
  const tool = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), execute: ({ input }) => (runs.push(input.text), 'written') });
  return { runs, tool };
}

/** What a new agent resumed from the store waits on, and what the store's inbox lists for the session. */
async function inboxAndResumed(store: SessionStore, sessionId: string, options: AgentOptions) {
  const resumed = createAgent({ ...options, store, resume: sessionId });
  await resumed.ready;
  await resumed.flush();
  const shown = resumed.pendingApprovals.map((approval) => ({ id: approval.id, path: approval.path }));
  const listed = ((await store.listPending!()).find((session) => session.sessionId === sessionId)?.approvals ?? []).map((approval) => ({ id: approval.id, path: approval.path }));
  await resumed.close();
  return { shown, listed };
}

describe('listPending() after a process stopped between two appends of an answer', () => {
  it('after approval-resolved was stored but not the allowance: the inbox still lists the approval the resumed agent waits on', async () => {
    const inner = memorySessionStore();
    const dying = dyingAt(inner, 'permission-decision');
    const { runs, tool } = writer();
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'x' }, 'w1'))]), tools: [tool], store: dying.store });
    await agent.run('go').result;
    dying.arm();
    expect((await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow' }).result).status).toBe('error');
    const { shown, listed } = await inboxAndResumed(inner, agent.sessionId, { model: scriptedModel(['Done.']), tools: [tool] });
    expect(shown).toEqual([{ id: expect.any(String), path: ['w1'] }]);
    expect(listed).toEqual(shown);
    expect(runs).toEqual([]);
  });

  it("inside a subagent's continuation, before the parent recorded call-suspended: the inbox lists the subagent's new approval, not the answered one", async () => {
    const inner = memorySessionStore();
    const dying = dyingAt(inner, 'call-suspended');
    const { runs, tool } = writer();
    const child = scriptedModel([turn(toolCall('write', { text: 'c1' }, 'c_1')), turn(toolCall('write', { text: 'c2' }, 'c_2')), 'Child done.']);
    const agents = { writer: { description: 'Writes.', prompt: 'You write.', model: child } };
    const agent = createAgent({ model: scriptedModel([turn(toolCall('Agent', { description: 'do it', prompt: 'go', subagent_type: 'writer' }, 'p_agent'))]), tools: [tool], store: dying.store, agents });
    await agent.run('go').result;
    const first = agent.pendingApprovals[0]!;
    dying.arm();
    expect((await agent.resolveApproval(first.id, { behavior: 'allow' }).result).status).toBe('error');
    expect(runs).toEqual(['c1']);
    const { shown, listed } = await inboxAndResumed(inner, agent.sessionId, { model: scriptedModel([]), tools: [tool], agents: { writer: { ...agents.writer, model: scriptedModel([]) } } });
    expect(shown).toEqual([{ id: expect.any(String), path: ['p_agent', 'c_2'] }]);
    expect(listed).toEqual(shown);
    expect(listed.map((approval) => approval.id)).not.toContain(first.id);
  });
});
