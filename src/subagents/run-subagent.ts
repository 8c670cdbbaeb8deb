import { randomId } from '../ids/random-id.js';
import { runHooksUnchecked } from '../hooks/run-hooks.js';
import { ToolQueue } from '../loop/tool-queue.js';
import type { RunResult, SubagentRunSummary } from '../events/run-result.js';
import { runLoop, type RunInput } from '../loop/run-loop.js';
import type { AgentCore } from '../runtime/agent-core.js';
import type { ToolRunContext } from '../tools/types.js';
import { linkedRunAbort } from './linked-run-abort.js';
import { subagentStopSignal } from './subagent-stop-signal.js';
import { trackSubagentRun } from './subagent-runs.js';
import { noteSubagentEnded } from '../loop/open-subagents.js';

/** What one subagent run needs besides its core. */
export interface SubagentRunArgs {
  /** The parent's core (its hooks run for `SubagentStop`). */
  parent: AgentCore;
  /** The subagent's type. */
  subagentType: string;
  /**
   * Aborted with the parent's call (or, for a background task, when the top agent closes): it
   * stops the subagent's run, and the `SubagentStop` hooks if it aborts while they run (see
   * `subagentStopSignal`).
   */
  signal: AbortSignal;
  /** The parent call's run, to add the subagent's usage to (absent for a background task). */
  run: ToolRunContext | undefined;
  /** Called with the subagent's result once `subagent-end` is emitted, before its `SubagentStop` hooks run. */
  onEnd?: (result: RunResult) => void;
}

/**
 * Runs a subagent's loop (a prompt, or the host's answer to an approval inside it) to its end:
 * its usage is added to the parent's run (`reportSubagent`), `subagent-end` is announced and the
 * `SubagentStop` hooks run. `agent.close()` waits for it (see `trackSubagentRun`).
 */
export function runSubagent(core: AgentCore, input: RunInput, args: SubagentRunArgs): Promise<RunResult> {
  return trackSubagentRun(core, runToEnd(core, input, args));
}

async function runToEnd(core: AgentCore, input: RunInput, args: SubagentRunArgs): Promise<RunResult> {
  // Its own signal, linked to the parent's: interrupting the parent stops it.
  const toolConcurrency = core.options.maxToolConcurrency ?? 10;
  const { abort, unlink } = linkedRunAbort(args.signal, toolConcurrency);
  let result: RunResult;
  try {
    result = await runLoop(core, input, {
      runId: args.run?.runId ?? `run_${randomId(12)}`,
      abort,
      queue: new ToolQueue(toolConcurrency),
      sink: args.run?.sink ?? ((event) => args.parent.runSink?.(event)),
      // It spends from its parent run's budget (a background task, outliving the run, has one of its own).
      ...(args.run?.spend ? { spend: args.run.spend } : {}),
      ...(core.parentToolUseId !== undefined ? { parentToolUseId: core.parentToolUseId } : {}),
    }).finally(unlink);
  } catch (error) {
    // The loop ends its own failures; whatever got past it still releases the parent's run end.
    noteSubagentEnded(args.parent, core);
    throw error;
  }
  const summary: SubagentRunSummary = {
    agentId: core.agentId!,
    subagentType: args.subagentType,
    parentToolUseId: core.parentToolUseId!,
    status: result.status,
    usage: result.usage,
    costUsd: result.costUsd,
    turns: result.turns,
  };
  if (result.estimatedOutputTokens !== undefined) summary.estimatedOutputTokens = result.estimatedOutputTokens;
  if (result.stopReason !== undefined) summary.stopReason = result.stopReason;
  args.run?.reportSubagent?.(summary, result.subagents);
  core.emit({ type: 'subagent-end', subagentType: args.subagentType, summary });
  noteSubagentEnded(args.parent, core);
  args.onEnd?.(result);
  // Not the parent's signal as it is: the interrupt that stopped the subagent would hand its hooks
  // an aborted signal, leaving them no way to clean up after it. A later interrupt, or close(),
  // stops them.
  const stopSignal = subagentStopSignal(core, args.signal);
  const stop = await runHooksUnchecked({
    event: 'SubagentStop',
    hooks: args.parent.options.hooks,
    signal: stopSignal.signal,
    abortedBecause: stopSignal.abortedBecause,
    input: { sessionId: core.sessionId, agentId: summary.agentId, subagentType: args.subagentType, parentToolUseId: summary.parentToolUseId, status: result.status, text: result.text, stopReason: result.stopReason ?? null },
  }).finally(stopSignal.unlink);
  for (const error of stop.errors) args.parent.emit({ type: 'error', error, fatal: false });
  await core.flush();
  return result;
}
