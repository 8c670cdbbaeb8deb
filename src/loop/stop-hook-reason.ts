import { hasHooks } from '../hooks/has-hooks.js';
import { runHooks } from '../hooks/run-hooks.js';
import type { AgentCore } from '../runtime/agent-core.js';
import { reportHookErrors } from './execute-tools.js';
import type { RunAbort } from './run-abort.js';

/**
 * The reason to go on that a `Stop` hook gives when the model would end the run (its own, or a
 * default sentence), or undefined when none asks to continue (a subagent runs `SubagentStop`
 * hooks instead, elsewhere).
 */
export async function stopHookReason(core: AgentCore, stopHookActive: boolean, abort: RunAbort): Promise<string | undefined> {
  // A subagent's end runs the parent's `SubagentStop` hooks instead.
  if (core.parentToolUseId !== undefined || !hasHooks(core.options.hooks, 'Stop')) return undefined;
  const stop = await runHooks({ event: 'Stop', hooks: core.options.hooks, signal: abort.signal, input: { sessionId: core.sessionId, stopHookActive } });
  reportHookErrors(core, stop.errors);
  const again = stop.outputs.find((output) => output?.continue);
  const reason = again?.reason?.trim() ? again.reason : 'A Stop hook asked you to continue working.';
  return again ? reason : undefined;
}
