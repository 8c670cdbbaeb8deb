// A subagent type defined with `permissionMode: 'plan'` plans for as long as it lives: its own
// approved ExitPlanMode (or a host answer that sets a mode) saves its plan but never gives it
// write, edit or exec rights.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memoryPlanStore, type AgentEvent, type PermissionUpdate } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

function fixture() {
  const writes: string[] = [];
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: ({ input }) => (writes.push(input.text), `wrote ${input.text}`) });
  return { writes, write };
}

/** A parent in `default` mode that starts a `planner` (plan mode by its type) whose model presents a plan, then tries to write. */
function plannerAgent(options: { canUseTool?: Parameters<typeof createAgent>[0]['canUseTool'] } = {}) {
  const { writes, write } = fixture();
  const planStore = memoryPlanStore();
  const child = scriptedModel([
    turn(toolCall('ExitPlanMode', { plan: '1. Write x.' }, 'c_exit')),
    turn(toolCall('write', { text: 'x' }, 'c_write')),
    'Tried to write.',
  ]);
  const agent = createAgent({
    model: scriptedModel([turn(toolCall('Agent', { description: 'plan it', prompt: 'plan', subagent_type: 'planner' }, 'p_agent')), 'Parent done.']),
    tools: [write],
    planStore,
    ...(options.canUseTool ? { canUseTool: options.canUseTool } : {}),
    agents: { planner: { description: 'p', prompt: 'p', model: child, permissionMode: 'plan' } },
  });
  const events: AgentEvent[] = [];
  agent.on('mode-change', (event) => events.push(event));
  agent.on('tool-result', (event) => events.push(event));
  return { agent, writes, child, planStore, events };
}

const setMode = (mode: 'default' | 'acceptEdits'): PermissionUpdate[] => [{ type: 'setMode', mode, destination: 'session' }];

describe("a subagent whose type's permissionMode is plan", () => {
  it('stays in plan mode after the host approves its ExitPlanMode: the plan is saved, the write after it is refused', async () => {
    const { agent, writes, planStore, events } = plannerAgent();
    const first = await agent.run('go').result;
    expect(first.pendingApprovals).toEqual([expect.objectContaining({ toolName: 'ExitPlanMode', agentId: expect.any(String) })]);
    const done = await agent.resolveApproval(first.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(done.status).toBe('completed');
    expect(writes).toEqual([]);
    // The plan is the subagent's own, saved as approved.
    const names = await planStore.list();
    expect(names).toHaveLength(1);
    expect(await planStore.read(names[0]!)).toBe('1. Write x.');
    // Nothing says it left plan mode, and the write was refused in plan mode.
    expect(events.filter((event) => event.type === 'mode-change')).toEqual([]);
    const refusal = events.find((event) => event.type === 'tool-result' && event.toolUseId === 'c_write');
    expect(refusal).toMatchObject({ isError: true });
    // Its model is told it stays in plan mode and hands the plan back, not told to carry it out.
    const exitResult = events.find((event) => event.type === 'tool-result' && event.toolUseId === 'c_exit');
    expect(JSON.stringify(exitResult)).toMatch(/you stay in plan mode/);
    expect(JSON.stringify(exitResult)).not.toMatch(/Carry it out now/);
    expect(agent.permissionMode).toBe('default');
  });

  it('stays in plan mode when the approval names a mode to go on in (acceptEdits, default)', async () => {
    for (const mode of ['acceptEdits', 'default'] as const) {
      const { agent, writes } = plannerAgent();
      const first = await agent.run('go').result;
      let result = await agent.resolveApproval(first.pendingApprovals[0]!.id, { behavior: 'allow', updatedPermissions: setMode(mode) }).result;
      // A host that would allow the write too never gets asked about it: plan mode refuses it.
      for (let round = 0; round < 3 && result.status === 'awaiting-approval'; round++) {
        result = await agent.resolveApproval(result.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
      }
      expect(result.status, mode).toBe('completed');
      expect(writes, mode).toEqual([]);
    }
  });

  it('stays in plan mode when a host that allows everything approves its plan and its write', async () => {
    const asked: string[] = [];
    const { agent, writes } = plannerAgent({ canUseTool: (name) => (asked.push(name), { behavior: 'allow', updatedPermissions: setMode('acceptEdits') }) });
    const done = await agent.run('go').result;
    expect(done.status).toBe('completed');
    expect(writes).toEqual([]);
    // The write is refused by plan mode before anyone is asked.
    expect(asked).toEqual(['ExitPlanMode']);
  });
});

describe('the ExitPlanMode a subagent reads', () => {
  const toolDescription = (model: ReturnType<typeof scriptedModel>) => model.requests[0]!.request.tools!.find((tool) => tool.name === 'ExitPlanMode')?.description;

  it("says a plan-only subagent stays in plan mode once approved; another subagent's and the parent's say the plan leaves it", async () => {
    const planner = scriptedModel(['A plan.']);
    const worker = scriptedModel(['Done.']);
    const parent = scriptedModel([
      turn(toolCall('Agent', { description: 'plan', prompt: 'plan', subagent_type: 'planner' }, 'p1'), toolCall('Agent', { description: 'work', prompt: 'work', subagent_type: 'worker' }, 'p2')),
      'Parent done.',
    ]);
    const agent = createAgent({
      model: parent,
      agents: { planner: { description: 'p', prompt: 'p', model: planner, permissionMode: 'plan' }, worker: { description: 'w', prompt: 'w', model: worker } },
    });
    expect((await agent.run('go').result).status).toBe('completed');
    expect(toolDescription(planner)).toContain('You are a subagent that only plans: if the user approves, the plan is saved and you stay in plan mode');
    for (const model of [worker, parent]) {
      expect(toolDescription(model)).toContain('If the user approves, you leave plan mode');
      expect(toolDescription(model)).not.toContain('only plans');
    }
  });
});
