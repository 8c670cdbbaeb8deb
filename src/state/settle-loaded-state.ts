import type { ToolResultBlock } from '../model/messages.js';
import type { BatchCall, SessionState } from './session-state.js';

/** The answer given on resume to a call that may have been running when the process stopped. */
export const INTERRUPTED_BEFORE_FINISHING =
  'This tool call was interrupted before it finished (the session stopped while it ran, and it was resumed later). It may have had partial effects; check before repeating it.';

const WAITING = new Set<BatchCall['state']>(['undecided', 'deferred', 'suspended']);

/**
 * Makes a loaded state (folded from a store, or read from a snapshot) safe to continue, in place.
 * The calls of the open batch that come before the first call still waiting (undecided, deferred
 * or suspended) and are `allowed` may have started before the process stopped: they are answered
 * with an `is_error` result, never run again. Calls allowed after a waiting call cannot have
 * started (calls run in order): they go back to `undecided`, so the permission pipeline decides
 * them again in the resuming process — nothing runs on the strength of a decision read from
 * outside. Nested runs of suspended calls are settled the same way.
 * @returns the answers given, for the caller to record.
 */
export function settleLoadedState(state: SessionState): Array<{ toolUseId: string; toolName: string; result: ToolResultBlock }> {
  const answered: Array<{ toolUseId: string; toolName: string; result: ToolResultBlock }> = [];
  let waiting = false;
  for (const call of state.openBatch?.calls ?? []) {
    if (WAITING.has(call.state)) waiting = true;
    if (call.state === 'suspended' && call.nested) settleLoadedState(call.nested.state);
    if (call.state !== 'allowed') continue;
    if (waiting) {
      call.state = 'undecided';
      delete call.input;
      delete call.heldUpdates;
      delete call.note;
      continue;
    }
    const result: ToolResultBlock = { type: 'tool_result', tool_use_id: call.toolUseId, content: INTERRUPTED_BEFORE_FINISHING, is_error: true };
    answered.push({ toolUseId: call.toolUseId, toolName: call.toolName, result });
  }
  return answered;
}
