// Attack class: "Approval ... restores the mode from before planning unless you chose one" when the
// approval waits across a restart — the mode before planning must survive the store and the
// snapshot, whether the host or the model (EnterPlanMode) entered plan mode.
import { describe, expect, it } from 'vitest';
import { createAgent, memorySessionStore, type AgentOptions, type PermissionMode } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const PLAN = '1. Draft\n2. Review';

async function parkedPlan(before: PermissionMode, enteredBy: 'host' | 'model') {
  const store = memorySessionStore();
  const script =
    enteredBy === 'model'
      ? [turn(toolCall('EnterPlanMode', {}, 'toolu_enter')), turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan'))]
      : [turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan'))];
  const options: AgentOptions = { model: scriptedModel(script), store, permissionMode: before, enterPlanMode: true };
  const first = createAgent({
    ...options,
    // The model's EnterPlanMode is allowed; the plan waits for the host.
    canUseTool: (name) => (name === 'EnterPlanMode' ? { behavior: 'allow' } : { behavior: 'defer' }),
  });
  if (enteredBy === 'host') first.setPermissionMode('plan');
  const result = await first.run('Plan the article.').result;
  expect(result.status).toBe('awaiting-approval');
  expect(first.permissionMode).toBe('plan');
  const snapshot = first.snapshot();
  const approvalId = first.pendingApprovals[0]!.id;
  await first.close();
  return { store, snapshot, approvalId, sessionId: first.sessionId };
}

describe('attack: the mode before planning, across a restart', () => {
  it.each([
    ['acceptEdits', 'host'],
    ['acceptEdits', 'model'],
    ['dontAsk', 'host'],
  ] as const)('before: %s, plan mode entered by the %s; approved after a resume from the store: back to the mode before', async (before, enteredBy) => {
    const { store, approvalId, sessionId } = await parkedPlan(before, enteredBy);
    const again = createAgent({ model: scriptedModel(['Writing.']), store, resume: sessionId, enterPlanMode: true });
    await again.ready;
    expect(again.permissionMode).toBe('plan');
    await again.resolveApproval(approvalId, { behavior: 'allow' }).result;
    expect(again.plan?.text).toBe(PLAN);
    expect(again.permissionMode).toBe(before);
    await again.close();
  });

  it('approved after a resume from the snapshot: back to the mode before', async () => {
    const { snapshot, approvalId } = await parkedPlan('acceptEdits', 'host');
    const again = createAgent({ model: scriptedModel(['Writing.']), resume: snapshot, enterPlanMode: true });
    await again.ready;
    await again.resolveApproval(approvalId, { behavior: 'allow' }).result;
    expect(again.permissionMode).toBe('acceptEdits');
  });

  it('a mode the host chose in the approval wins over the mode before, after a resume too', async () => {
    const { store, approvalId, sessionId } = await parkedPlan('acceptEdits', 'host');
    const again = createAgent({ model: scriptedModel(['Writing.']), store, resume: sessionId, enterPlanMode: true });
    await again.ready;
    await again.resolveApproval(approvalId, { behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'default', destination: 'session' }] }).result;
    expect(again.permissionMode).toBe('default');
    await again.close();
  });
});
