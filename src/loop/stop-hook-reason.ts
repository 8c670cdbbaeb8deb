import { hasHooks } from '../hooks/has-hooks.js';
import { runHooksUnchecked } from '../hooks/run-hooks.js';
import type { AgentCore } from '../runtime/agent-core.js';
import { reportHookErrors } from './execute-tools.js';
import type { RunAbort } from './run-abort.js';
import type { StopReason } from '../model/model.js';

/** What a `Stop` hook's request to continue after a refusal is answered with (a `warning`, source `hooks`). */
const NOT_AFTER_REFUSAL =
  'A Stop hook asked to continue, but the model stopped its answer as a refusal (stop reason "refusal"), so the run ends instead: going on from a refused answer as it is tends to be refused again. Rephrase the request in a new run, or check it against the model\'s usage policy.';

/** Whether the agent has `Stop` hooks to run when the model would end the run (a subagent's end runs the parent's `SubagentStop` hooks instead). */
export function runsStopHooks(core: AgentCore): boolean {
  return core.parentToolUseId === undefined && hasHooks(core.options.hooks, 'Stop');
}

/**
 * The reason to go on that a `Stop` hook gives when the model would end the run (its own, or a
 * default sentence), or undefined when none asks to continue (a subagent runs `SubagentStop`
 * hooks instead, elsewhere). After a refusal the hooks still run (told `stopReason: 'refusal'`),
 * but a request to continue is not followed: a `warning` says so. Called when
 * {@link runsStopHooks} (the loop awaits nothing at a final answer without them).
 */
export async function stopHookReason(core: AgentCore, stopHookActive: boolean, abort: RunAbort, stopReason: StopReason | null): Promise<string | undefined> {
  const stop = await runHooksUnchecked({ event: 'Stop', hooks: core.options.hooks, signal: abort.signal, input: { sessionId: core.sessionId, stopHookActive, stopReason } });
  reportHookErrors(core, stop.errors);
  const again = stop.outputs.find((output) => output?.continue);
  if (!again) return undefined;
  if (stopReason === 'refusal') {
    if (!abort.aborted) core.emit({ type: 'warning', source: 'hooks', message: NOT_AFTER_REFUSAL });
    return undefined;
  }
  return again.reason?.trim() ? again.reason : 'A Stop hook asked you to continue working.';
}
