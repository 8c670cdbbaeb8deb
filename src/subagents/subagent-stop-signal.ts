import { onAbort } from '../loop/on-abort.js';
import type { AgentCore } from '../runtime/agent-core.js';

/** The signal of a subagent's `SubagentStop` hooks, and why it aborts (for their errors). */
export interface SubagentStopSignal {
  signal: AbortSignal;
  /** Completes "the hook was aborted because …". */
  abortedBecause: string;
  /** Stops listening to the signals it is linked to; call it once the hooks ran. */
  unlink: () => void;
}

/**
 * The signal a subagent's `SubagentStop` hooks get: aborted when the agent at the top of its tree
 * is closed, and when `parentSignal` (the parent's run, or a background task's stop) aborts while
 * they run. An abort that came before — the interrupt that stopped the subagent — does not abort
 * it: the hooks can clean up after the stopped subagent, within their `timeoutMs`.
 */
export function subagentStopSignal(core: AgentCore, parentSignal: AbortSignal): SubagentStopSignal {
  const closing = core.treeClosing;
  if (parentSignal.aborted || closing.aborted) return { signal: closing, abortedBecause: 'the agent was closed', unlink: () => undefined };
  const controller = new AbortController();
  const unlinkParent = onAbort(parentSignal, () => controller.abort(parentSignal.reason));
  const unlinkClosing = onAbort(closing, () => controller.abort(closing.reason));
  return {
    signal: controller.signal,
    abortedBecause: 'the run was interrupted or the agent was closed',
    unlink: () => (unlinkParent(), unlinkClosing()),
  };
}
