import { randomId } from '../ids/random-id.js';
import { ToolQueue } from '../loop/tool-queue.js';
import type { RunResult, SubagentRunSummary } from '../events/run-result.js';
import { runHooks } from '../hooks/run-hooks.js';
import { runLoop, type RunInput } from '../loop/run-loop.js';
import type { AgentCore } from '../runtime/agent-core.js';
import type { ToolRunContext } from '../tools/types.js';
import { linkedRunAbort } from './linked-run-abort.js';

/** What one subagent run needs besides its core. */
export interface SubagentRunArgs {
  /** The parent's core (its hooks run for `SubagentStop`). */
  parent: AgentCore;
  /** The subagent's type. */
  subagentType: string;
  /**
   * Aborted with the parent's call (or, for a background task, when the top agent closes): it
   * stops the subagent's run, and then the `SubagentStop` hooks.
   */
  signal: AbortSignal;
  /** The parent call's run, to add the subagent's usage to (absent for a background task). */
  run: ToolRunContext | undefined;
}

/**
 * Runs a subagent's loop (a prompt, or the host's answer to an approval inside it) to its end:
 * its usage is added to the parent's run (`reportSubagent`), `subagent-end` is announced and the
 * `SubagentStop` hooks run.
 */
export async function runSubagent(core: AgentCore, input: RunInput, args: SubagentRunArgs): Promise<RunResult> {
  // Its own signal, linked to the parent's: interrupting the parent stops it.
  const toolConcurrency = core.options.maxToolConcurrency ?? 10;
  const { abort, unlink } = linkedRunAbort(args.signal, toolConcurrency);
  const result = await runLoop(core, input, {
    runId: args.run?.runId ?? `run_${randomId(12)}`,
    abort,
    queue: new ToolQueue(toolConcurrency),
    sink: args.run?.sink ?? ((event) => args.parent.runSink?.(event)),
    // It spends from its parent run's budget (a background task, outliving the run, has one of its own).
    ...(args.run?.spend ? { spend: args.run.spend } : {}),
    ...(core.parentToolUseId !== undefined ? { parentToolUseId: core.parentToolUseId } : {}),
  }).finally(unlink);
  const summary: SubagentRunSummary = {
    agentId: core.agentId!,
    subagentType: args.subagentType,
    parentToolUseId: core.parentToolUseId!,
    status: result.status,
    usage: result.usage,
    costUsd: result.costUsd,
    turns: result.turns,
  };
  args.run?.reportSubagent?.(summary, result.subagents);
  core.emit({ type: 'subagent-end', subagentType: args.subagentType, summary });
  // The parent's signal, not the subagent's own (unlinked by now): an interrupt of the parent's
  // run stops a slow hook as it stops the parent's other hooks, and a background task's hooks stop
  // when the agent closes.
  const stop = await runHooks({
    event: 'SubagentStop',
    hooks: args.parent.options.hooks,
    signal: args.signal,
    input: { sessionId: core.sessionId, agentId: summary.agentId, subagentType: args.subagentType, parentToolUseId: summary.parentToolUseId, status: result.status, text: result.text },
  });
  for (const error of stop.errors) args.parent.emit({ type: 'error', error, fatal: false });
  await core.flush();
  return result;
}
