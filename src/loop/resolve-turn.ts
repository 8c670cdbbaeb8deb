import type { AgentCore, AgentEventInput } from '../agent/agent-core.js';
import type { ContentBlock, ToolUseBlock } from '../model/messages.js';
import type { PermissionDecision } from '../permissions/types.js';
import { decidePermission } from '../permissions/decide-permission.js';
import { nanoid } from 'nanoid';
import { isIncompleteToolInput } from '../model/incomplete-tool-input.js';
import { holdPlanTargetMode, type BatchCall, type OpenBatch } from './open-batch.js';
import { refuseCall } from './refuse-call.js';


/** Opens a batch for the tool calls of an assistant message. */
export function openBatch(content: readonly ContentBlock[]): OpenBatch | undefined {
  const calls: BatchCall[] = content
    .filter((block): block is ToolUseBlock => block.type === 'tool_use')
    .map((block) => ({ toolUseId: block.id, toolName: block.name, rawInput: block.input, state: 'undecided' }));
  return calls.length ? { calls } : undefined;
}

/**
 * Decides every undecided call of the batch, in `tool_use` order, through the permission
 * pipeline. Decisions run one at a time, so a mode change or an "always allow" from one call
 * applies to the calls after it. Denied calls are answered at once; allowed ones wait for
 * `executeTools`; deferred ones become pending approvals.
 */
export async function resolveTurn(core: AgentCore, batch: OpenBatch, signal: AbortSignal, denials: PermissionDecision[]): Promise<void> {
  for (const call of batch.calls) {
    if (call.state !== 'undecided') continue;
    // Aborted, or the host denied a call and asked to stop: the caller answers the rest.
    if (signal.aborted || batch.interruptRequested) return;
    const tool = core.tools.get(call.toolName);
    if (!tool) {
      const available = [...core.tools.keys()].join(', ');
      deny(core, call, `No tool named "${call.toolName}" exists. Available tools: ${available || 'none'}.`, denials, { type: 'validation', message: 'unknown tool' });
      continue;
    }
    if (isIncompleteToolInput(call.rawInput)) {
      deny(core, call, `Your input for "${call.toolName}" was cut off because the response reached the max_tokens limit, so the call was not run. Send the call again with a shorter input (split large content across several calls).`, denials, { type: 'validation', message: 'input cut off by max_tokens' });
      continue;
    }
    const outcome = await decidePermission({
      tool,
      toolUseId: call.toolUseId,
      rawInput: call.rawInput,
      mode: core.mode,
      rules: core.rules,
      hooks: core.options.hooks,
      canUseTool: core.options.canUseTool,
      autoMode: core.options.autoMode,
      signal,
      agentId: core.agentId,
      cwd: core.options.cwd,
      agent: core.toolContext,
      emit: (event) => {
        if (event.type === 'permission-request' && event.toolName === 'ExitPlanMode') {
          const plan = (event.input as { plan?: unknown } | undefined)?.plan;
          core.emit({ type: 'plan-approval-request', toolUseId: call.toolUseId, plan: typeof plan === 'string' ? plan : '' });
        }
        core.emit(event as AgentEventInput);
      },
    });
    const decision = outcome.decision;
    core.emit({ type: 'permission-decision', ...decision });
    if (decision.behavior === 'allow') {
      call.state = 'allowed';
      call.input = outcome.input ?? decision.input;
      // The decision's reason is the step that allowed it (the callback); the call tells it is a plan.
      const isPlanApproval = call.toolName === 'ExitPlanMode' && core.mode === 'plan';
      core.applyPermissionUpdates(isPlanApproval ? holdPlanTargetMode(call, decision.updatedPermissions) : decision.updatedPermissions);
    } else if (decision.behavior === 'deny') {
      refuseCall(core, call, decision.message ?? `Permission to use ${call.toolName} was denied.`);
      // An interrupt is not the host's denial: keep it out of the audit of denials.
      if (!signal.aborted) denials.push(decision);
      if (decision.interrupt) batch.interruptRequested = true;
    } else {
      call.state = 'deferred';
      call.input = outcome.input ?? call.rawInput;
      call.approval = {
        id: `approval_${nanoid(12)}`,
        toolName: call.toolName,
        input: call.input,
        toolUseId: call.toolUseId,
        ...(core.agentId !== undefined ? { agentId: core.agentId } : {}),
        reason: decision.reason,
        suggestions: outcome.suggestions ?? [],
        ...(outcome.blockedPath !== undefined ? { blockedPath: outcome.blockedPath } : {}),
        createdAt: new Date().toISOString(),
      };
      core.record({ kind: 'approval-pending', approval: call.approval });
    }
  }
}

function deny(core: AgentCore, call: BatchCall, message: string, denials: PermissionDecision[], reason: PermissionDecision['reason']): void {
  const decision: PermissionDecision = { toolName: call.toolName, toolUseId: call.toolUseId, behavior: 'deny', reason, message };
  core.emit({ type: 'permission-decision', ...decision });
  refuseCall(core, call, message);
  denials.push(decision);
}
