import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memoryPlanStore, memorySessionStore, type AgentEvent } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';

function fixture() {
  const writes: string[] = [];
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: ({ input }) => (writes.push(input.text), `wrote ${input.text}`) });
  return { writes, write };
}
const agentCall = (prompt: string, id: string) => toolCall('Agent', { description: 'write it', prompt, subagent_type: 'writer' }, id);
const childScript = () => [turn(toolCall('write', { text: 'from the child' }, 'c_write')), 'The child wrote it.'];

describe('a deferral inside a subagent', () => {
  it('ends the whole run awaiting-approval; resolveApproval on the same agent continues the subagent, then the parent', async () => {
    const { writes, write } = fixture();
    const child = scriptedModel(childScript());
    const agent = createAgent({ model: scriptedModel([turn(agentCall('write', 'p_agent')), 'Parent done.']), tools: [write], agents: { writer: { description: 'w', prompt: 'w', model: child } } });
    const first = await agent.run('go').result;
    expect(first.status).toBe('awaiting-approval');
    expect(first.pendingApprovals).toEqual([expect.objectContaining({ toolName: 'write', agentId: expect.any(String), path: ['p_agent', 'c_write'] })]);
    expect(writes).toEqual([]);
    const done = await agent.resolveApproval(first.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(done.status).toBe('completed');
    expect(done.text).toBe('Parent done.');
    expect(writes).toEqual(['from the child']);
    expect((agent.messages[2]!.content as Array<{ content: unknown }>)[0]!.content).toBe('The child wrote it.');
    expect(validateMessagesRequest(agent.messages)).toBeUndefined();
  });

  it("refuses an answer whose rule names no tool with a ConfigurationError, the subagent's approval still pending; a rule naming a tool works", async () => {
    const { writes, write } = fixture();
    const agent = createAgent({ model: scriptedModel([turn(agentCall('write', 'p_agent')), 'Parent done.']), tools: [write], agents: { writer: { description: 'w', prompt: 'w', model: scriptedModel(childScript()) } } });
    const [approval] = (await agent.run('go').result).pendingApprovals;
    const typo = [{ type: 'addRules' as const, behavior: 'allow' as const, rules: ['wrtie'], destination: 'session' as const }];
    expect(() => agent.resolveApproval(approval!.id, { behavior: 'allow', updatedPermissions: typo })).toThrow(/"wrtie" names no tool/);
    expect(agent.pendingApprovals.map((pending) => pending.id)).toEqual([approval!.id]);
    expect(writes).toEqual([]);
    const rule = [{ type: 'addRules' as const, behavior: 'allow' as const, rules: ['write'], destination: 'session' as const }];
    expect((await agent.resolveApproval(approval!.id, { behavior: 'allow', updatedPermissions: rule }).result).status).toBe('completed');
    expect(writes).toEqual(['from the child']);
  });

  it('resumes in another agent from a snapshot, and from the store, running the nested call exactly once', async () => {
    for (const via of ['snapshot', 'store'] as const) {
      const { writes, write } = fixture();
      const store = memorySessionStore();
      const planStore = memoryPlanStore();
      const agents = () => ({ writer: { description: 'w', prompt: 'w', model: scriptedModel(childScript().slice(1)) } });
      const first = createAgent({
        model: scriptedModel([turn(agentCall('write', 'p_agent'))]),
        tools: [write],
        store,
        planStore,
        agents: { writer: { description: 'w', prompt: 'w', model: scriptedModel(childScript()) } },
      });
      const waiting = await first.run('go').result;
      expect(waiting.status).toBe('awaiting-approval');
      const snapshot = JSON.parse(JSON.stringify(first.snapshot()));
      await first.close();
      const resumed = createAgent({ model: scriptedModel(['Parent done.']), tools: [write], store, planStore, agents: agents(), resume: via === 'snapshot' ? snapshot : first.sessionId });
      await resumed.ready;
      const [approval] = resumed.pendingApprovals;
      expect(approval).toMatchObject({ toolName: 'write', path: ['p_agent', 'c_write'] });
      const done = await resumed.resolveApproval(approval!.id, { behavior: 'allow' }).result;
      expect(done.status, via).toBe('completed');
      expect(writes, via).toEqual(['from the child']);
      expect(() => resumed.resolveApproval(approval!.id, { behavior: 'allow' })).toThrow(/approval/i);
      await resumed.close();
      // A third process loading the store sees the call answered: nothing to run again.
      const third = createAgent({ model: scriptedModel([]), tools: [write], store, planStore, agents: agents(), resume: first.sessionId });
      await third.ready;
      expect(third.pendingApprovals).toEqual([]);
      expect(third.messages).toEqual(resumed.messages);
      await third.close();
    }
  });

  it('a denial reaches the subagent, which goes on; the parent gets its answer', async () => {
    const { writes, write } = fixture();
    const agent = createAgent({ model: scriptedModel([turn(agentCall('write', 'p_agent')), 'Parent done.']), tools: [write], agents: { writer: { description: 'w', prompt: 'w', model: scriptedModel([turn(toolCall('write', { text: 'x' }, 'c_write')), 'Could not write.']) } } });
    const first = await agent.run('go').result;
    const done = await agent.resolveApproval(first.pendingApprovals[0]!.id, { behavior: 'deny', message: 'No writing today.' }).result;
    expect(done.status).toBe('completed');
    expect(writes).toEqual([]);
    expect((agent.messages[2]!.content as Array<{ content: unknown }>)[0]!.content).toBe('Could not write.');
  });

  it('the parent switched to plan mode while the subagent waits: the approved write still does not run', async () => {
    const { writes, write } = fixture();
    const agent = createAgent({ model: scriptedModel([turn(agentCall('write', 'p_agent')), 'Parent done.']), tools: [write], agents: { writer: { description: 'w', prompt: 'w', model: scriptedModel(childScript()) } } });
    const first = await agent.run('go').result;
    agent.setPermissionMode('plan');
    await agent.resolveApproval(first.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(writes).toEqual([]);
  });

  it('a subagent in plan mode presents its plan to the parent host as a plan-approval-request with its agentId; the plan is saved as {slug}-agent-{agentId}.md', async () => {
    const planStore = memoryPlanStore();
    const child = scriptedModel([turn(toolCall('ExitPlanMode', { plan: '1. Do the thing.' }, 'c_exit')), 'Planned and done.']);
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Agent', { description: 'plan it', prompt: 'plan', subagent_type: 'teammate' }, 'p_agent')), 'Parent done.']),
      planStore,
      agents: { teammate: { description: 't', prompt: 't', model: child, permissionMode: 'plan' } },
    });
    const events: AgentEvent[] = [];
    agent.on('plan-approval-request', (event) => events.push(event));
    const first = await agent.run('go').result;
    expect(first.status).toBe('awaiting-approval');
    const agentId = first.pendingApprovals[0]!.agentId!;
    expect(events[0]).toMatchObject({ agentId, parentToolUseId: 'p_agent' });
    const approved: AgentEvent[] = [];
    agent.on('plan-approved', (event) => approved.push(event));
    const done = await agent.resolveApproval(first.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(done.status).toBe('completed');
    const name = (approved[0] as { name: string }).name;
    expect(name).toMatch(new RegExp(`-agent-${agentId}\\.md$`));
    expect(await planStore.read(name)).toBe('1. Do the thing.');
    // The parent itself has no plan: the teammate's plan is its own.
    expect(agent.plan).toBeUndefined();
  });
});
