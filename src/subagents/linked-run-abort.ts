import { onAbort } from '../loop/on-abort.js';
import { RunAbort } from '../loop/run-abort.js';

/**
 * A subagent run's own interruption, aborted when `parent` aborts (interrupting the parent stops
 * it); the parent's signal holds one listener however many subagents run (see `onAbort`), and the
 * subagent's own signal is made only if something of its run reads it (see `RunAbort`). Call the
 * returned `unlink` when the subagent's run ends.
 */
export function linkedRunAbort(parent: AbortSignal, toolConcurrency: number): { abort: RunAbort; unlink: () => void } {
  const abort = new RunAbort(toolConcurrency);
  const unlink = onAbort(parent, () => abort.abort(parent.reason));
  return { abort, unlink };
}
