import type { AgentCore } from '../runtime/agent-core.js';

/** The subagent runs under way in each agent tree, by the tree's top agent. */
const trees = new WeakMap<AgentCore, Set<Promise<unknown>>>();

function topOf(core: AgentCore): AgentCore {
  let top = core;
  while (top.sessionParent) top = top.sessionParent;
  return top;
}

/**
 * Keeps `run` (a subagent's run, to the end of its `SubagentStop` hooks) among those `agent.close()`
 * waits for, until it settles. An interrupted run's call does not wait for its subagent, whose
 * end — its hooks cleaning up after it — may outlast that run: close() must not resolve first.
 */
export function trackSubagentRun<T>(core: AgentCore, run: Promise<T>): Promise<T> {
  const top = topOf(core);
  let runs = trees.get(top);
  if (!runs) trees.set(top, (runs = new Set()));
  const held = runs;
  held.add(run);
  const untrack = () => void held.delete(run);
  run.then(untrack, untrack);
  return run;
}

/**
 * Resolves once every subagent run under way in `core`'s tree has settled, those started
 * meanwhile included; undefined when none is. For `agent.close()`, which has stopped them all.
 */
export function subagentRunsEnded(core: AgentCore): Promise<void> | undefined {
  const runs = trees.get(topOf(core));
  if (!runs?.size) return undefined;
  return (async () => {
    while (runs.size) await Promise.allSettled([...runs]);
  })();
}
