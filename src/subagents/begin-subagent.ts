import type { AgentCore } from '../runtime/agent-core.js';
import { runHooksUnchecked } from '../hooks/run-hooks.js';

/** What {@link beginSubagent} needs. */
export interface BeginSubagentArgs {
  /** The agent whose call starts it (its `SubagentStart` hooks run, its events carry their errors). */
  parent: AgentCore;
  /** The subagent, built and holding its place. */
  child: AgentCore;
  subagentType: string;
  /** The task's short description. */
  description: string;
  /** The task as the parent's call gave it. */
  prompt: string;
  /** Started with `run_in_background`: its task id. */
  taskId?: string;
  /** Aborted when it is stopped (the parent's run interrupted, the agent closed). */
  signal: AbortSignal;
  /** Called right before `subagent-start` is emitted (not when it never starts). */
  onStart?: () => void;
}

/**
 * Starts a subagent that has taken its place under `maxSubagentConcurrency`: the `SubagentStart`
 * hooks run (their `additionalContext` is added to the prompt), then `subagent-start` is emitted,
 * and from then on its `subagent-end` follows. Returns the prompt to run it with, or undefined when
 * `signal` aborted meanwhile: then it never started, and nothing of it is announced.
 */
export async function beginSubagent(args: BeginSubagentArgs): Promise<string | undefined> {
  const { parent, child } = args;
  const background = args.taskId !== undefined;
  const start = await runHooksUnchecked({
    event: 'SubagentStart',
    hooks: parent.options.hooks,
    signal: args.signal,
    input: { sessionId: parent.sessionId, agentId: child.agentId!, subagentType: args.subagentType, prompt: args.prompt, parentToolUseId: child.parentToolUseId!, background },
  });
  if (args.signal.aborted) return undefined;
  for (const error of start.errors) parent.emit({ type: 'error', error, fatal: false });
  const context = start.outputs.map((output) => output?.additionalContext).filter((text): text is string => typeof text === 'string' && text.trim() !== '');
  args.onStart?.();
  child.emit({ type: 'subagent-start', subagentType: args.subagentType, description: args.description, ...(background ? { taskId: args.taskId! } : {}) });
  return [args.prompt, ...context].join('\n\n');
}
