import type { ToolResultBlock } from '../model/messages.js';
import type { PendingApproval } from '../permissions/pending-approval.js';
import type { PermissionMode, PermissionUpdate } from '../permissions/types.js';

/** Where one tool call of the open batch stands. */
export type BatchCallState = 'undecided' | 'allowed' | 'deferred' | 'running' | 'done';

/** One tool call of the assistant message being answered. JSON, kept in snapshots. */
export interface BatchCall {
  toolUseId: string;
  toolName: string;
  /** The input as the model sent it. */
  rawInput: unknown;
  state: BatchCallState;
  /** The input that will run (validated, after hooks and host edits), once allowed or deferred. */
  input?: unknown;
  /** The pending approval, while deferred. */
  approval?: PendingApproval;
  /** The answer, once done. */
  result?: ToolResultBlock;
  /**
   * For an approved plan (`ExitPlanMode`): the mode the host chose, applied only once the plan
   * is saved, so nothing runs outside plan mode on a plan that was not kept.
   */
  planTargetMode?: PermissionMode;
}

/**
 * The tool calls of the latest assistant message that are not all answered yet. While it exists,
 * the history ends with that assistant message; its results are appended as one user message,
 * in `tool_use` order, when every call is done.
 */
export interface OpenBatch {
  calls: BatchCall[];
  /** A host denial asked to end the run once the batch is answered. */
  interruptRequested?: boolean;
}

/** The calls of a batch still waiting for the host. */
export function deferredCalls(batch: OpenBatch): BatchCall[] {
  return batch.calls.filter((call) => call.state === 'deferred');
}

/** Answers a call with an error result (denied, failed, interrupted) and marks it done. */
export function answerWithError(call: BatchCall, message: string): void {
  call.state = 'done';
  call.result = { type: 'tool_result', tool_use_id: call.toolUseId, content: message, is_error: true };
}

/** The tool_result blocks of a finished batch, in `tool_use` order. */
export function batchResults(batch: OpenBatch): ToolResultBlock[] {
  return batch.calls.map((call) => {
    if (call.state !== 'done' || !call.result) {
      throw new Error(`internal: tool call ${call.toolUseId} has no result yet`);
    }
    return call.result;
  });
}

/**
 * Applies nothing itself: splits a plan approval's updates into the target mode (kept on the
 * call until the plan is saved) and the rest (applied at once by the caller).
 */
export function holdPlanTargetMode(call: BatchCall, updates: readonly PermissionUpdate[] | undefined): PermissionUpdate[] {
  const rest: PermissionUpdate[] = [];
  for (const update of updates ?? []) {
    if (update.type === 'setMode') call.planTargetMode = update.mode;
    else rest.push(update);
  }
  return rest;
}
