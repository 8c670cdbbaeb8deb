// Attack class: recoverPlan's "last approved ExitPlanMode input" when the host edited the plan
// before approving it, and the transcript has lost the plan snapshot (a plan store gone, a
// transcript pruned or hand-edited): the plan recovered must be the approved edit, never the
// model's draft that the host replaced.
import { describe, expect, it } from 'vitest';
import { createAgent, memorySessionStore, recoverPlan, type SessionEntry } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

describe('attack: recovering a plan the host edited before approving it', () => {
  it('from the ExitPlanMode source, the edited plan is recovered, not the draft', async () => {
    const store = memorySessionStore();
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('ExitPlanMode', { plan: 'the draft' }, 'toolu_plan')), 'Carrying it out.']),
      store,
      permissionMode: 'plan',
      canUseTool: () => ({ behavior: 'allow', updatedInput: { plan: 'the edited plan' } }),
    });
    await agent.run('Plan it.').result;
    expect(agent.plan?.text).toBe('the edited plan');
    const entries: SessionEntry[] = [];
    for await (const entry of store.load(agent.sessionId)) entries.push(entry);
    expect(await recoverPlan({ entries })).toMatchObject({ source: 'snapshot', text: 'the edited plan' });
    const withoutSnapshot = entries.filter((entry) => entry.kind !== 'plan-snapshot');
    expect(await recoverPlan({ entries: withoutSnapshot })).toEqual({ source: 'exit-plan-mode', text: 'the edited plan' });
  });

  it('a plan approved as the model wrote it is recovered as written', async () => {
    const store = memorySessionStore();
    const agent = createAgent({ model: scriptedModel([turn(toolCall('ExitPlanMode', { plan: 'as written' }, 'toolu_plan')), 'ok']), store, permissionMode: 'plan', canUseTool: () => ({ behavior: 'allow' }) });
    await agent.run('Plan it.').result;
    const entries: SessionEntry[] = [];
    for await (const entry of store.load(agent.sessionId)) if (entry.kind !== 'plan-snapshot') entries.push(entry);
    expect(await recoverPlan({ entries })).toEqual({ source: 'exit-plan-mode', text: 'as written' });
  });
});
