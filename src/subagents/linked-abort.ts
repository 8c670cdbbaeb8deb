import { onAbort } from '../loop/on-abort.js';

/**
 * A subagent's own abort controller, aborted when `parent` aborts (interrupting the parent stops
 * it); the parent's signal holds one listener however many subagents run (see `onAbort`). Call
 * the returned `unlink` when the subagent's run ends.
 */
export function linkedAbortController(parent: AbortSignal): { controller: AbortController; unlink: () => void } {
  const controller = new AbortController();
  const unlink = onAbort(parent, () => controller.abort(parent.reason));
  return { controller, unlink };
}
