import type { ToolResultBlock, ToolUseBlock } from '../model/messages.js';
import type { PendingApproval } from '../types/pending-approval.js';
import type { BatchCall, OpenBatch, SessionState } from './session-state.js';
import { hostFacingApproval } from './host-facing-approval.js';

/** The calls of a batch still waiting for the host. */
export function deferredCalls(batch: OpenBatch): BatchCall[] {
  return batch.calls.filter((call) => call.state === 'deferred');
}

/** True when every call of the batch is answered. */
export function isBatchDone(batch: OpenBatch): boolean {
  return batch.calls.every((call) => call.state === 'done');
}

/** True when `call` is the batch's only call not answered yet: answering it completes the batch. */
export function completesBatch(batch: OpenBatch | undefined, call: BatchCall): boolean {
  if (batch === undefined) return false;
  let found = false;
  for (const other of batch.calls) {
    if (other === call) found = true;
    else if (other.state !== 'done') return false;
  }
  return found;
}

/** The tool_result blocks of a finished batch, in `tool_use` order. */
export function batchResults(batch: OpenBatch): ToolResultBlock[] {
  return batch.calls.map((call) => {
    if (call.state !== 'done' || !call.result) throw new Error(`internal: tool call ${call.toolUseId} has no result yet`);
    return call.result;
  });
}

/** The `tool_use` block of a call of the open batch (in the last assistant message): the call's raw input. */
export function toolUseOf(state: SessionState, toolUseId: string): ToolUseBlock | undefined {
  const last = state.messages[state.messages.length - 1];
  if (last?.role !== 'assistant') return undefined;
  return last.content.find((block): block is ToolUseBlock => block.type === 'tool_use' && block.id === toolUseId);
}

/** A copy of a pending approval (plain JSON in the state); one that cannot be copied is given as it is. */
function copied<T>(approval: T): T {
  try {
    return structuredClone(approval);
  } catch {
    return approval;
  }
}

/**
 * Every approval waiting for the host, flat: the session's own deferred calls, and those inside
 * the nested runs suspended calls wait on, each with its `path` — the `toolUseId`s from the
 * outermost call down to the call itself — as the host is shown them ({@link hostFacingApproval}).
 * Each is a copy: a host that changes one in place (its `input`, say) changes neither the state
 * nor what runs when it is allowed.
 */
export function pendingApprovalsOf(state: SessionState, prefix: readonly string[] = []): PendingApproval[] {
  const pending: PendingApproval[] = [];
  for (const call of state.openBatch?.calls ?? []) {
    if (call.state === 'deferred' && call.approval) pending.push({ ...copied(hostFacingApproval(call.approval)), path: [...prefix, call.toolUseId] });
    if (call.state === 'suspended' && call.nested) pending.push(...pendingApprovalsOf(call.nested.state, [...prefix, call.toolUseId]));
  }
  return pending;
}
