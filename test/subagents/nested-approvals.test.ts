import { describe, expect, it, vi } from 'vitest';
import { deferred, tick } from '../helpers.js';
import { z } from 'zod';
import { createAgent, defineTool, memoryPlanStore, memorySessionStore, type Agent, type AgentEvent } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';

function fixture() {
  const writes: string[] = [];
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: ({ input }) => (writes.push(input.text), `wrote ${input.text}`) });
  return { writes, write };
}
const agentCall = (prompt: string, id: string) => toolCall('Agent', { description: 'write it', prompt, subagent_type: 'writer' }, id);
const childScript = () => [turn(toolCall('write', { text: 'from the child' }, 'c_write')), 'The child wrote it.'];

/** The subagent-start and subagent-end events an agent emits, in order, as `start <agentId>` / `end <agentId> <status>`. */
function watchStartsAndEnds(agent: Agent) {
  const seen: Array<AgentEvent & { type: 'subagent-start' | 'subagent-end' }> = [];
  agent.on('subagent-start', (event) => seen.push(event));
  agent.on('subagent-end', (event) => seen.push(event));
  return seen;
}

/** Checks that every subagent-end follows a subagent-start of the same agent, each start ended before the next. */
function expectPaired(seen: ReturnType<typeof watchStartsAndEnds>) {
  const open = new Set<string>();
  for (const event of seen) {
    if (event.type === 'subagent-start') {
      expect(open.has(event.agentId!), `a second start of ${event.agentId} before its end`).toBe(false);
      open.add(event.agentId!);
    } else {
      expect(open.has(event.agentId!), `an end of ${event.agentId} without its start`).toBe(true);
      open.delete(event.agentId!);
    }
  }
  expect([...open]).toEqual([]);
}

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

  it("pairs every subagent-end with a subagent-start: the continuation after the host's answer starts again, resumed, with the task's description", async () => {
    const { write } = fixture();
    const agent = createAgent({ model: scriptedModel([turn(agentCall('write', 'p_agent')), 'Parent done.']), tools: [write], agents: { writer: { description: 'w', prompt: 'w', model: scriptedModel(childScript()) } } });
    const seen = watchStartsAndEnds(agent);
    const first = await agent.run('go').result;
    const agentId = first.pendingApprovals[0]!.agentId!;
    expect(seen).toEqual([
      expect.objectContaining({ type: 'subagent-start', agentId, parentToolUseId: 'p_agent', description: 'write it' }),
      expect.objectContaining({ type: 'subagent-end', agentId, summary: expect.objectContaining({ status: 'awaiting-approval' }) }),
    ]);
    expect(seen[0]).not.toHaveProperty('resumed');
    seen.length = 0;
    // The continuation's events reach the run's stream too, the start before the subagent's own.
    const events: AgentEvent[] = [];
    const run = agent.resolveApproval(first.pendingApprovals[0]!.id, { behavior: 'allow' });
    for await (const event of run) if (event.agentId === agentId) events.push(event);
    expect((await run.result).status).toBe('completed');
    expect(seen).toEqual([
      expect.objectContaining({ type: 'subagent-start', agentId, parentToolUseId: 'p_agent', subagentType: 'writer', description: 'write it', resumed: true }),
      expect.objectContaining({ type: 'subagent-end', agentId, summary: expect.objectContaining({ status: 'completed' }) }),
    ]);
    expect(events[0]).toMatchObject({ type: 'subagent-start', resumed: true });
    expect(events.at(-1)).toMatchObject({ type: 'subagent-end' });
  });

  it('pairs them at every level of nesting, and in another process resuming from the snapshot', async () => {
    const { writes, write } = fixture();
    const lead = () => ({ description: 'l', prompt: 'l', maxDepth: 1, model: scriptedModel([turn(toolCall('Agent', { description: 'write it', prompt: 'write', subagent_type: 'writer' }, 'l_agent')), 'The lead is done.']) });
    const writer = () => ({ description: 'w', prompt: 'w', model: scriptedModel(childScript()) });
    const leadCall = toolCall('Agent', { description: 'lead it', prompt: 'lead', subagent_type: 'lead' }, 'p_agent');
    const first = createAgent({ model: scriptedModel([turn(leadCall)]), tools: [write], agents: { lead: lead(), writer: writer() } });
    const firstSeen = watchStartsAndEnds(first);
    const waiting = await first.run('go').result;
    expect(waiting.pendingApprovals[0]!.path).toEqual(['p_agent', 'l_agent', 'c_write']);
    expectPaired(firstSeen);
    expect(firstSeen.map((event) => event.type)).toEqual(['subagent-start', 'subagent-start', 'subagent-end', 'subagent-end']);
    const snapshot = JSON.parse(JSON.stringify(first.snapshot()));
    await first.close();

    const agents = { lead: { ...lead(), model: scriptedModel(['The lead is done.']) }, writer: { ...writer(), model: scriptedModel(childScript().slice(1)) } };
    const second = createAgent({ model: scriptedModel(['Parent done.']), tools: [write], agents, resume: snapshot });
    await second.ready;
    const seen = watchStartsAndEnds(second);
    expect((await second.resolveApproval(second.pendingApprovals[0]!.id, { behavior: 'allow' }).result).status).toBe('completed');
    expect(writes).toEqual(['from the child']);
    expectPaired(seen);
    const [leadStart, writerStart] = firstSeen;
    expect(seen).toEqual([
      expect.objectContaining({ type: 'subagent-start', agentId: leadStart!.agentId, subagentType: 'lead', description: 'lead it', parentToolUseId: 'p_agent', resumed: true }),
      expect.objectContaining({ type: 'subagent-start', agentId: writerStart!.agentId, subagentType: 'writer', description: 'write it', parentToolUseId: 'l_agent', resumed: true }),
      expect.objectContaining({ type: 'subagent-end', agentId: writerStart!.agentId, summary: expect.objectContaining({ status: 'completed' }) }),
      expect.objectContaining({ type: 'subagent-end', agentId: leadStart!.agentId, summary: expect.objectContaining({ status: 'completed' }) }),
    ]);
    await second.close();
  });

  it('a continuation interrupted while it runs ends interrupted after its resumed start', async () => {
    const started = deferred();
    const { write } = fixture();
    const hang = defineTool({ name: 'hang', description: 'Hangs.', inputSchema: z.object({}), readOnly: true, execute: ({ signal }) => new Promise((resolve) => (started.resolve(), signal.addEventListener('abort', () => resolve('stopped')))) });
    const childModel = scriptedModel([turn(toolCall('write', { text: 'x' }, 'c_write')), turn(toolCall('hang', {}, 'c_hang')), 'never']);
    const agent = createAgent({ model: scriptedModel([turn(agentCall('write', 'p_agent')), 'Parent stopped.']), tools: [write, hang], agents: { writer: { description: 'w', prompt: 'w', model: childModel } } });
    const seen = watchStartsAndEnds(agent);
    const first = await agent.run('go').result;
    const run = agent.resolveApproval(first.pendingApprovals[0]!.id, { behavior: 'allow' });
    await started.promise;
    agent.interrupt();
    expect((await run.result).status).toBe('interrupted');
    // The interrupted subagent's end may follow its parent's run-end: wait for it.
    await vi.waitFor(() => expect(seen).toHaveLength(4));
    expectPaired(seen);
    expect(seen.map((event) => [event.type, event.type === 'subagent-end' ? event.summary.status : event.resumed ?? false])).toEqual([
      ['subagent-start', false],
      ['subagent-end', 'awaiting-approval'],
      ['subagent-start', true],
      ['subagent-end', 'interrupted'],
    ]);
    await agent.close();
  });

  it('a continuation interrupted while it waits for a place neither starts nor ends', async () => {
    const holding = deferred();
    const claimed = deferred();
    const { writes, write } = fixture();
    const hang = defineTool({ name: 'hang', description: 'Hangs.', inputSchema: z.object({}), readOnly: true, execute: ({ signal }) => new Promise((resolve) => (holding.resolve(), signal.addEventListener('abort', () => resolve('stopped')))) });
    const agent = createAgent({
      // The writer takes the place first; once it waits for the host, the background task takes it.
      model: scriptedModel([turn(agentCall('write', 'p_agent'), toolCall('Agent', { description: 'hold', prompt: 'hold', subagent_type: 'holder', run_in_background: true }, 'p_bg')), 'never']),
      tools: [write, hang],
      agents: { writer: { description: 'w', prompt: 'w', model: scriptedModel(childScript()) }, holder: { description: 'h', prompt: 'h', model: scriptedModel([turn(toolCall('hang', {}, 'h_hang')), 'held']) } },
      // One place, held by the background task when the writer's answer comes.
      maxSubagentConcurrency: 1,
      claimApproval: () => (claimed.resolve(), true),
    });
    const seen = watchStartsAndEnds(agent);
    const first = await agent.run('go').result;
    const writerId = first.pendingApprovals[0]!.agentId!;
    await holding.promise;
    const run = agent.resolveApproval(first.pendingApprovals[0]!.id, { behavior: 'allow' });
    // Once the answer is claimed it goes on to the Agent call, which waits for the place.
    await claimed.promise;
    await tick();
    expect(agent.running).toBe(true);
    agent.interrupt();
    expect((await run.result).status).toBe('interrupted');
    await agent.close();
    expect(writes).toEqual([]);
    expectPaired(seen);
    expect(seen.filter((event) => event.agentId === writerId).map((event) => event.type)).toEqual(['subagent-start', 'subagent-end']);
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
