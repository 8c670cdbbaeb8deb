// A refusal in the answer that presents the plan (ExitPlanMode): no plan card, no approval, the
// mode stays plan, nothing is saved as the plan; also when the session is read back mid-answer.
import { describe, expect, it } from 'vitest';
import { createAgent, memoryPlanStore } from 'agent-harness';
import { scriptedModel, text, toolCall, turn } from 'agent-harness/testing';
import { collect } from '../helpers.js';

const refusedPlan = () => turn(text('Here is the plan'), toolCall('ExitPlanMode', { plan: '# Plan\n1. Do the refused thing' }, 'toolu_exit'), { stopReason: 'refusal' });

describe('a refusal while presenting the plan', () => {
  it('raises no plan card, approves nothing, saves no plan; the mode stays plan', async () => {
    const planStore = memoryPlanStore();
    const asked: string[] = [];
    const model = scriptedModel([refusedPlan(), 'Asked again.']);
    const agent = createAgent({ model, permissionMode: 'plan', planStore, canUseTool: async (name) => (asked.push(name), { behavior: 'allow' }) });
    const { events, result } = await collect(agent.run('Plan it.'));
    expect(model.requests).toHaveLength(1);
    expect(asked).toEqual([]);
    expect(events.some((event) => event.type === 'plan-approval-request' || event.type === 'permission-request')).toBe(false);
    expect(result).toMatchObject({ status: 'completed', stopReason: 'refusal', pendingApprovals: [] });
    expect(agent.permissionMode).toBe('plan');
    expect(agent.plan).toBeUndefined();
  });

  it('read back from a snapshot taken before the call was answered: continue() approves nothing', async () => {
    const first = createAgent({ model: scriptedModel([refusedPlan()]), permissionMode: 'plan' });
    let left: unknown;
    first.on('tool-call', () => {
      left ??= JSON.parse(JSON.stringify(first.snapshot()));
    });
    await first.run('Plan it.').result;
    const asked: string[] = [];
    const model = scriptedModel(['Asked again.']);
    const resumed = createAgent({ model, resume: left as never, canUseTool: async (name) => (asked.push(name), { behavior: 'allow' }) });
    const { events, result } = await collect(resumed.continue());
    expect(model.requests).toHaveLength(0);
    expect(asked).toEqual([]);
    expect(events.some((event) => event.type === 'plan-approval-request')).toBe(false);
    expect(result).toMatchObject({ status: 'completed', stopReason: 'refusal' });
    expect(resumed.permissionMode).toBe('plan');
    expect(resumed.plan).toBeUndefined();
  });
});
