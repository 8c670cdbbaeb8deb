import type { AgentCore } from '../agent/agent-core.js';
import type { PermissionDecision, PermissionResult } from '../permissions/types.js';
import { validateToolInput } from '../permissions/validate-tool-input.js';
import { holdPlanTargetMode, type BatchCall, type OpenBatch } from './open-batch.js';
import { refuseCall } from './refuse-call.js';

/** The host's answer to a pending approval. */
export type ApprovalDecision = Exclude<PermissionResult, { behavior: 'defer' }>;

/**
 * Applies the host's answer to a deferred call: records it, then either answers the call with
 * the denial, or marks it allowed (an edited input is validated again and checked against the
 * deny rules) and applies the permission updates. The run that follows executes what is allowed.
 */
export async function applyApprovalDecision(
  core: AgentCore,
  batch: OpenBatch,
  call: BatchCall,
  decision: ApprovalDecision,
  signal: AbortSignal,
): Promise<void> {
  core.record({
    kind: 'approval-resolved',
    approvalId: call.approval!.id,
    toolUseId: call.toolUseId,
    decision,
    ...(decision.behavior === 'allow' && decision.updatedInput !== undefined ? { input: decision.updatedInput } : {}),
  });
  const base = { toolName: call.toolName, toolUseId: call.toolUseId };
  const refuse = (message: string, reason: PermissionDecision['reason'], interrupt = false) => {
    core.emit({ type: 'permission-decision', ...base, reason, behavior: 'deny', message, ...(interrupt ? { interrupt: true } : {}) });
    refuseCall(core, call, message);
    if (interrupt) batch.interruptRequested = true;
  };
  if (decision.behavior === 'deny') {
    refuse(decision.message, { type: 'callback', message: 'resolved approval' }, decision.interrupt === true);
    return;
  }
  const tool = core.tools.get(call.toolName)!;
  let input = call.input;
  if (decision.updatedInput !== undefined) {
    // The same checks as the model's input: the schema, then the tool's own validateInput.
    const validated = await validateToolInput({ tool, input: decision.updatedInput, toolUseId: call.toolUseId, agent: core.toolContext, signal });
    if (!validated.ok) {
      const message = `The edited input was not run: ${validated.message}`;
      refuse(message, { type: 'validation', message });
      return;
    }
    input = validated.value;
    // An edited input gets no way around the deny rules.
    const rule = core.rules.match('deny', tool, input, { cwd: core.options.cwd });
    if (rule !== undefined) {
      refuse(`The edited input for ${call.toolName} matches the deny rule "${rule}", so the call was not run.`, { type: 'rule', behavior: 'deny', rule });
      return;
    }
  }
  const isPlanApproval = call.approval?.reason.type === 'plan-approval' || (call.toolName === 'ExitPlanMode' && core.mode === 'plan');
  call.state = 'allowed';
  call.input = input;
  delete call.approval;
  core.emit({
    type: 'permission-decision',
    ...base,
    reason: { type: 'callback', message: 'resolved approval' },
    behavior: 'allow',
    input,
    ...(decision.updatedPermissions ? { updatedPermissions: decision.updatedPermissions } : {}),
  });
  core.applyPermissionUpdates(isPlanApproval ? holdPlanTargetMode(call, decision.updatedPermissions) : decision.updatedPermissions);
}
