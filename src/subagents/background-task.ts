import { randomId } from '../ids/random-id.js';
import type { BackgroundTaskInfo, RunResult } from '../events/run-result.js';
import { completedReport } from './completed-report.js';
import { BACKGROUND_TASKS_KEY, taskEndNotification, type StoredBackgroundTask } from '../session/task-end-notification.js';

export { BACKGROUND_TASKS_KEY, type StoredBackgroundTask };
import { ConfigurationError } from '../errors/configuration-error.js';
import type { AgentCore } from '../runtime/agent-core.js';
import { runSubagent } from './run-subagent.js';
import { describeThrown, toError } from '../errors/describe-thrown.js';
import type { SubagentLimiter } from './subagent-limiter.js';
import { beginSubagent } from './begin-subagent.js';
import { truncateText } from '../loop/tool-result-content.js';



/** The parent's background tasks as stored (a task stored `running` that this process does not run was interrupted). */
export function storedBackgroundTasks(parent: AgentCore): Record<string, StoredBackgroundTask> {
  return parent.toolState.get<Record<string, StoredBackgroundTask>>(BACKGROUND_TASKS_KEY) ?? {};
}

function store(parent: AgentCore, task: StoredBackgroundTask): void {
  parent.toolState.set(BACKGROUND_TASKS_KEY, { ...storedBackgroundTasks(parent), [task.taskId]: task });
}

/**
 * The output as the model is told of it: bounded like a tool result, as a foreground subagent's
 * answer is (at `maxToolResultChars`; with `context.spill` on, at the spill threshold), so that a
 * subagent that answers at length cannot push the parent's next request past the context window.
 * With spilling on, `TaskOutput` gives the whole output (spilled and paged like any long tool
 * result), and the note says so.
 */
function notifiedOutput(parent: AgentCore, task: StoredBackgroundTask & { output: string }): string {
  const spill = parent.context.settings.spill;
  const limit = spill ? spill.maxChars : (parent.options.maxToolResultChars ?? 100_000);
  if (task.output.length <= limit) return task.output;
  const cut = truncateText(task.output, limit);
  return spill ? `${cut}\nCall TaskOutput with task_id "${task.taskId}" for the whole output.` : cut;
}

/** Records a task's end and tells the model in its next turn (call inside `inOneWrite`: never one without the other). */
function recordTaskEnd(parent: AgentCore, task: StoredBackgroundTask & { output: string }): void {
  store(parent, task);
  parent.commit({ kind: 'reminder', text: taskEndNotification(task, notifiedOutput(parent, task)) });
}

/** What a task that was running when its process stopped is recorded with, on resume. */
const STOPPED_WITH_THE_SESSION = '(it was interrupted: the session stopped while it ran, and was resumed later; it did not finish, and may have had partial effects)';

/**
 * On resume: the background tasks recorded as running were stopped with the process that ran
 * them. Each is recorded as `interrupted`, and the model is told, as it would have been told of
 * its end (one append for all of them). Nothing runs again.
 */
export function settleStoppedBackgroundTasks(parent: AgentCore): void {
  const running = Object.values(storedBackgroundTasks(parent)).filter((task) => task.status === 'running' && !parent.backgroundTasks.has(task.taskId));
  if (running.length === 0) return;
  parent.inOneWrite(() => {
    for (const task of running) recordTaskEnd(parent, { ...task, status: 'interrupted', output: STOPPED_WITH_THE_SESSION });
  });
}

/** What starting a background task needs. */
export interface StartBackgroundTaskArgs {
  parent: AgentCore;
  /** The subagent, built with `background: true` (what it would have to wait for is denied). */
  child: AgentCore;
  subagentType: string;
  description: string;
  /** The task as the parent's call gave it (`SubagentStart` hooks may add to it). */
  prompt: string;
  /** The agent tree's subagent limiter (the task takes a place of its own: nobody waits on it). */
  limiter: SubagentLimiter;
}

/** The output of a task stopped (by `agent.close()`) before it started: waiting for a place, or in its `SubagentStart` hooks. */
const NEVER_STARTED = '(stopped before it started: the agent was closed while it waited for a place under maxSubagentConcurrency or for its SubagentStart hooks)';

/** How a background task ended, from its run's status. */
function endStatus(status: RunResult['status']): BackgroundTaskInfo['status'] {
  return status === 'completed' ? 'completed' : status === 'interrupted' ? 'interrupted' : 'failed';
}

/**
 * Starts a subagent that outlives the call that started it: recorded at once in the parent's
 * tool state (so a resumed session knows of it), run detached, and — when it ends — its output
 * stored, a notification queued for the parent model's next turn, and `background-task-end`
 * emitted. It starts (`SubagentStart` hooks, `subagent-start`) once it has a place under the
 * tree's `maxSubagentConcurrency`; stopped before that, it ends `interrupted` without starting.
 * The parent is the agent whose call started it, a subagent's own subagent included
 * (once that subagent's run has ended, only the event tells of it). While it runs it is kept in
 * the tree's {@link AgentCore.backgroundTasks}, so closing the top agent stops and awaits it at
 * any depth, its end (`interrupted`) recorded, notified and emitted before `close()` resolves.
 * Returns its task id.
 * @throws ConfigurationError when the agent at the top of the tree is closed (nothing starts in it).
 */
export function startBackgroundTask(args: StartBackgroundTaskArgs): string {
  const { parent, child } = args;
  if (parent.treeClosed) throw new ConfigurationError('The agent was closed, so no background task can start in it.');
  const taskId = `task_${randomId(10)}`;
  const info: BackgroundTaskInfo = { taskId, agentId: child.agentId!, subagentType: args.subagentType, description: args.description, status: 'running' };
  const tasks = parent.backgroundTasks;
  const finish = (status: BackgroundTaskInfo['status'], output: string) => {
    tasks.delete(taskId);
    // Stopped by close() too: recorded as interrupted (close() awaits this), so neither a snapshot
    // nor a resumed session shows a task that will never end as running.
    const ended = { ...info, status };
    // One append: a crash never records the end without the notification the model gets.
    parent.inOneWrite(() => {
      recordTaskEnd(parent, { ...ended, output });
      parent.emit({ type: 'background-task-end', task: ended, output });
    });
  };
  store(parent, { ...info });
  const controller = new AbortController();
  const { signal } = controller;
  let began = false;
  const ended = args.limiter
    .run(
      child,
      async () => {
        const prompt = await beginSubagent({ ...args, taskId, signal });
        if (prompt === undefined) return undefined;
        began = true;
        return runSubagent(child, { prompt }, { parent, subagentType: args.subagentType, signal, run: undefined });
      },
      { signal },
    )
    .then(
      (result) =>
        result === undefined
          ? finish('interrupted', NEVER_STARTED)
          : finish(
              endStatus(result.status),
              // A completed report says so when it was cut off or refused, as a foreground one does.
              result.status === 'completed' ? completedReport(result, parent.options.refusedAnswers !== 'keep') : result.text || result.error?.message || (parent.treeClosed ? '(stopped: the agent was closed while it ran)' : `(ended: ${result.status})`),
            ),
      // Stopped while it waited for a place: it never started.
      (error: unknown) => (!began && signal.aborted ? finish('interrupted', NEVER_STARTED) : finish('failed', describeThrown(error))),
    )
    // Recording the end failed (a bug): reported, and the task still counts as ended.
    .catch((error: unknown) => void parent.emit({ type: 'error', error: toError(error), fatal: false }));
  tasks.set(taskId, { info, controller, ended });
  return taskId;
}
