import { randomId } from '../ids/random-id.js';
import type { BackgroundTaskInfo } from '../events/run-result.js';
import type { AgentCore } from '../runtime/agent-core.js';
import { runSubagent } from './run-subagent.js';
import { describeThrown } from '../errors/describe-thrown.js';
import type { SubagentLimiter } from './subagent-limiter.js';

/** The tool-state key under which an agent keeps its background tasks (with their outputs once ended). */
export const BACKGROUND_TASKS_KEY = 'agent-harness/background-tasks';

/** A background task as kept in the parent's tool state. */
export interface StoredBackgroundTask extends BackgroundTaskInfo {
  /** Its final text (or what went wrong), once it ended. */
  output?: string;
}

/** The parent's background tasks as stored (a task stored `running` that this process does not run was interrupted). */
export function storedBackgroundTasks(parent: AgentCore): Record<string, StoredBackgroundTask> {
  return parent.toolState.get<Record<string, StoredBackgroundTask>>(BACKGROUND_TASKS_KEY) ?? {};
}

function store(parent: AgentCore, task: StoredBackgroundTask): void {
  parent.toolState.set(BACKGROUND_TASKS_KEY, { ...storedBackgroundTasks(parent), [task.taskId]: task });
}

/** What starting a background task needs. */
export interface StartBackgroundTaskArgs {
  parent: AgentCore;
  /** The subagent, built with `background: true` (what it would have to wait for is denied). */
  child: AgentCore;
  subagentType: string;
  description: string;
  prompt: string;
  /** The agent tree's subagent limiter (the task takes a place of its own: nobody waits on it). */
  limiter: SubagentLimiter;
}

/**
 * Starts a subagent that outlives the call that started it: recorded at once in the parent's
 * tool state (so a resumed session knows of it), run detached, and — when it ends — its output
 * stored, a notification queued for the parent model's next turn, and `background-task-end`
 * emitted. Returns its task id.
 */
export function startBackgroundTask(args: StartBackgroundTaskArgs): string {
  const { parent, child } = args;
  const taskId = `task_${randomId(10)}`;
  const task: BackgroundTaskInfo = { taskId, agentId: child.agentId!, subagentType: args.subagentType, description: args.description, status: 'running' };
  parent.backgroundTasks.set(taskId, task);
  store(parent, { ...task });
  child.emit({ type: 'subagent-start', subagentType: args.subagentType, description: args.description, taskId });
  const controller = new AbortController();
  parent.backgroundAborts.add(controller);
  void args.limiter
    .run(child, () => runSubagent(child, { prompt: args.prompt }, { parent, subagentType: args.subagentType, signal: controller.signal, run: undefined }))
    .then(
      (result) => finish(result?.status === 'completed' ? 'completed' : result?.status === 'interrupted' ? 'interrupted' : 'failed', result?.text || result?.error?.message || `(ended: ${result?.status})`),
      (error: unknown) => finish('failed', describeThrown(error)),
    );
  const finish = (status: BackgroundTaskInfo['status'], output: string) => {
    parent.backgroundAborts.delete(controller);
    parent.backgroundTasks.delete(taskId);
    if (parent.closed && status === 'interrupted') return;
    const ended = { ...task, status };
    store(parent, { ...ended, output });
    parent.commit({
      kind: 'reminder',
      text: `Background task ${taskId} (${args.subagentType}: ${args.description}) ${status}. Its output:\n${output}`,
    });
    parent.emit({ type: 'background-task-end', task: ended, output });
  };
  return taskId;
}
