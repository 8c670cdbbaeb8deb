import type { AgentCore } from '../runtime/agent-core.js';
import { hasHooks } from '../hooks/has-hooks.js';
import { runHooksUnchecked } from '../hooks/run-hooks.js';
import { subagentRunsEnded } from '../subagents/subagent-runs.js';
import type { AgentRun } from './agent-run.js';
import { boundCoreWrites } from './bound-core-writes.js';
import { closingToolSources } from './agent-tool-sources.js';
import { planWritesSettled } from '../runtime/save-plan.js';
import { DEFAULT_STORE_WRITE_GRACE_MS } from '../session/bound-writes.js';
import type { CloseOptions } from './close-options.js';

/** What `close()` stops and waits for besides the core. */
export interface CloseLoadedCoreArgs {
  /** The run under way, if any: interrupted, and waited for. */
  active: { abort: { abort(reason: unknown): void }; run: AgentRun } | undefined;
  /** Work beside the runs (a compaction, a rewind, a plan verification), already aborted: waited for. */
  aside: ReadonlyArray<{ done: Promise<unknown> }>;
  options: CloseOptions;
}

/**
 * The part of `agent.close()` once the session is loaded: ends the run, the background tasks and
 * the subagents still ending, runs the `SessionEnd` hooks, closes the tool sources, stores what
 * is left and releases the session in the store. Writes are bounded by `storeWriteGraceMs`, so a
 * store that stopped answering does not hold `close()` for ever.
 */
export async function closeLoadedCore(core: AgentCore, { active, aside, options }: CloseLoadedCoreArgs): Promise<void> {
  // SubagentStop hooks still running (a subagent's cleanup after an interrupt) are stopped.
  core.markClosed();
  // Every background task of the tree, whichever subagent started it; none starts from now on.
  const background = [...core.backgroundTasks.values()];
  for (const task of background) task.controller.abort(new Error('closed'));
  if (active) {
    active.abort.abort(new Error('closed'));
    await active.run.result;
  }
  await Promise.all(aside.map((work) => work.done.catch(() => undefined)));
  // A plan the interrupted run was saving: its write goes on in the plan store after the call
  // gave up on it, and lands before close() resolves (a host may remove the folder next), unless
  // the store leaves it unanswered for `storeWriteGraceMs`.
  const planWrite = planWritesSettled(core);
  if (planWrite) await withinGrace(planWrite, core.options.storeWriteGraceMs ?? DEFAULT_STORE_WRITE_GRACE_MS);
  // A foreground subagent of an interrupted run may still be ending (its SubagentStop hooks,
  // stopped by markClosed above): waited for, as the background tasks are.
  const subagentsEnded = subagentRunsEnded(core);
  if (background.length || subagentsEnded) {
    // A store that stops answering does not hold their ends, nor close(), forever (they never reject).
    const stopBounding = boundCoreWrites(core, 'the agent was closed');
    await Promise.all([...background.map((task) => task.ended), subagentsEnded]);
    stopBounding();
  }
  if (hasHooks(core.options.hooks, 'SessionEnd')) {
    const ended = await runHooksUnchecked({
      event: 'SessionEnd',
      hooks: core.options.hooks,
      // No run to interrupt: the host's signal stops them (a hook stops itself at its timeoutMs).
      signal: options.signal ?? new AbortController().signal,
      abortedBecause: "close()'s signal aborted",
      input: { sessionId: core.sessionId, reason: options.reason ?? 'closed' },
    });
    for (const error of ended.errors) core.emit({ type: 'error', error, fatal: false });
  }
  if (core.toolSources) {
    closingToolSources(core.toolSources);
    await core.toolSources.close();
  }
  const stopBounding = boundCoreWrites(core, 'the agent was closed');
  await core.flush();
  stopBounding();
  // Release what the store holds for this session (a file handle and lock, for the file store).
  await core.options.store?.close?.(core.sessionId);
}

/** `work`, or after `graceMs` if it has not settled by then (the timer does not keep the process alive). */
function withinGrace(work: Promise<void>, graceMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
    (timer as { unref?: () => void }).unref?.();
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
