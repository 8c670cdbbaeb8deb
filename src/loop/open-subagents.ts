import type { AgentCore } from '../runtime/agent-core.js';

/** Foreground subagents announced (`subagent-start`) and not yet ended (`subagent-end`), with what ends each one's wait. */
const open = new WeakMap<AgentCore, Map<AgentCore, { ended: Promise<void>; end: () => void }>>();

/**
 * Notes that `child`, a subagent started by a call of `parent`'s run (the `Agent` tool), was
 * announced: that run does not end before its `subagent-end` (see {@link openSubagentsEnded}).
 * Background tasks (they outlive the run) and the plan verifier (awaited) are not noted.
 */
export function noteSubagentStarted(parent: AgentCore, child: AgentCore): void {
  let children = open.get(parent);
  if (!children) open.set(parent, (children = new Map()));
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  children.set(child, { ended, end });
}

/** Notes that `child` announced its end (`subagent-end`). */
export function noteSubagentEnded(parent: AgentCore, child: AgentCore): void {
  const children = open.get(parent);
  const entry = children?.get(child);
  if (!entry) return;
  children!.delete(child);
  entry.end();
}

/**
 * Resolves once every foreground subagent of `parent` announced so far has announced its end;
 * undefined when none is open. An interrupted run's tool call does not wait for its subagent
 * (a tool may ignore its signal), but the subagent's loop stops at the interrupt: the run waits
 * for that, so its `subagent-end` comes before the run's `run-end` and a host iterating the run
 * sees every start paired with its end. Its `SubagentStop` hooks are not waited for.
 */
export function openSubagentsEnded(parent: AgentCore): Promise<void> | undefined {
  const children = open.get(parent);
  if (!children?.size) return undefined;
  return Promise.all([...children.values()].map((entry) => entry.ended)).then(() => undefined);
}
