import type { EntryDraft } from './entries.js';
import { applyEntryUnchecked } from './apply-entry.js';
import type { BatchCall, SessionState } from './session-state.js';
import { pendingApprovalsOf } from './batch.js';

/** The answer given on resume to a call that may have been running when the process stopped. */
export const INTERRUPTED_BEFORE_FINISHING =
  'This tool call was interrupted before it finished (the session stopped while it ran, and it was resumed later). It may have had partial effects; check before repeating it.';

/** The answer given on resume to a suspended call whose nested run was going on when the process stopped. */
export const NESTED_INTERRUPTED =
  'This call was interrupted before it finished: the subagent it waited on was running when the session stopped, and nothing of it is waiting any more. It may have had partial effects; check before repeating it.';

const WAITING = new Set<BatchCall['state']>(['undecided', 'deferred', 'suspended']);

/** Options of {@link settleLoadedState}. */
export interface SettleOptions {
  /**
   * Which allowed calls are safe to run again after a crash: they are left allowed, to run when
   * the session goes on, instead of being answered as interrupted. The caller decides (the state
   * does not know which tool a name stands for, nor whether it can trust where it came from).
   * @default none: every such call is answered as interrupted
   */
  runAgain?: (call: BatchCall) => boolean;
  /**
   * Which calls allowed after a call still waiting (so they cannot have started) keep their
   * answer — the host's approval, given while an earlier call of the batch still waited — instead
   * of going back to `undecided` for the pipeline to decide again (and ask the host again). The
   * caller decides: where the state came from can be trusted (the session's own transcript, a
   * signed snapshot), and nothing in this process refuses the call now (its tool is gone, a deny
   * rule matches). Applies to nested runs too.
   * @default none: every such call is decided again
   */
  keepAllowed?: (call: BatchCall) => boolean;
}

/**
 * What makes a loaded state (folded from a store, or read from a snapshot) safe to continue, as
 * entries for the caller to commit (so the transcript shows it). The calls of the open batch that
 * come before the first call still waiting (undecided, deferred or suspended) and are `allowed`
 * may have started before the process stopped: they are answered with an `is_error` result,
 * never run again — except those `options.runAgain` says are safe to repeat, which are left
 * allowed (they run when the session goes on: `continue()` or the next prompt). Calls allowed
 * after a waiting call cannot have started (calls run in order): they keep their answer where
 * `options.keepAllowed` says so (a trusted source), else go back to `undecided` (`call-reset`), so
 * the permission pipeline decides them again in the resuming process — nothing runs on the
 * strength of a decision read from an untrusted source. The nested
 * run of a suspended call is settled the same way (a new `call-suspended` entry). Pure.
 */
export function settleLoadedState(state: SessionState, options: SettleOptions = {}): EntryDraft[] {
  const drafts: EntryDraft[] = [];
  let waiting = false;
  for (const call of state.openBatch?.calls ?? []) {
    if (WAITING.has(call.state)) waiting = true;
    if (call.state === 'suspended' && call.nested) {
      // Only the host's kept answers carry into a nested run (a subagent's plan is not run again).
      const nested = settled(call.nested.state, options.keepAllowed ? { keepAllowed: options.keepAllowed } : {});
      if (pendingApprovalsOf(nested).length === 0) {
        // The nested run was going on when the process stopped (an answer had reached it): it
        // waits on nothing any more, so the call is answered as interrupted, never run again.
        drafts.push({
          kind: 'tool-result',
          toolUseId: call.toolUseId,
          toolName: call.toolName,
          result: { type: 'tool_result', tool_use_id: call.toolUseId, content: NESTED_INTERRUPTED, is_error: true },
        });
        continue;
      }
      if (nested !== call.nested.state) drafts.push({ kind: 'call-suspended', toolUseId: call.toolUseId, nested: { ...call.nested, state: nested } });
    }
    if (call.state !== 'allowed') continue;
    if (waiting) {
      if (options.keepAllowed?.(call)) continue;
      drafts.push({ kind: 'call-reset', toolUseId: call.toolUseId, reason: 'resume' });
      continue;
    }
    if (options.runAgain?.(call)) continue;
    drafts.push({
      kind: 'tool-result',
      toolUseId: call.toolUseId,
      toolName: call.toolName,
      result: { type: 'tool_result', tool_use_id: call.toolUseId, content: INTERRUPTED_BEFORE_FINISHING, is_error: true },
    });
  }
  return drafts;
}

/** A state with its settling applied (the same object when nothing changes). */
export function settled(state: SessionState, options: SettleOptions = {}): SessionState {
  const drafts = settleLoadedState(state, options);
  if (drafts.length === 0) return state;
  let copy = structuredClone(state);
  for (const draft of drafts) copy = applyEntryUnchecked(copy, draft);
  return copy;
}
