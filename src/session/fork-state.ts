import { randomId } from '../ids/random-id.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import { modeReminder } from '../permissions/mode-reminder.js';
import type { SessionState } from '../state/index.js';
import { BACKGROUND_TASKS_KEY, taskEndNotification, type StoredBackgroundTask } from './task-end-notification.js';

/** Options of `agent.fork()` and `forkSession()`. */
export interface ForkOptions {
  /**
   * Keep only the first `upTo` messages. When that would end on an assistant message whose tool
   * calls have no results, that message is left out too, so the fork's history is valid.
   * @default all messages
   */
  upTo?: number;
  /** The fork's session id. @default a new random id */
  sessionId?: string;
}

/**
 * The state of a fork: a new id and a (possibly cut) copy of the history, without the plan (the
 * caller copies it under the fork's own name).
 * @throws ConfigurationError for an `upTo` out of range.
 */
export function forkState(source: SessionState, options: ForkOptions, planModeInstructions?: string): { state: SessionState; plan: SessionState['plan'] } {
  const state = structuredClone(source);
  state.sessionId = options.sessionId ?? `session_${randomId(16)}`;
  endSourceBackgroundTasks(state, source.sessionId);
  const plan = state.plan;
  delete state.plan;
  delete state.planSlug;
  const { upTo } = options;
  if (upTo !== undefined) {
    if (!Number.isInteger(upTo) || upTo < 0 || upTo > state.messages.length) {
      throw new ConfigurationError(`fork: upTo must be an integer from 0 to ${state.messages.length} (the number of messages to keep), got ${JSON.stringify(upTo)}.`);
    }
    if (upTo < state.messages.length) {
      let keep = upTo;
      const last = state.messages[keep - 1];
      if (last?.role === 'assistant' && last.content.some((block) => block.type === 'tool_use')) keep--;
      state.messages = state.messages.slice(0, keep);
      state.messageUsage = state.messageUsage.slice(0, keep);
      delete state.openBatch;
      // Any cut leaves out the refused answer a history may end on (the last answer): the fork
      // does not end on a refusal, and its next prompt has nothing to withhold.
      delete state.endedOnRefusal;
      if (state.spilled) state.spilled = spillsNamedIn(state.spilled, state.messages);
      // The cut history may predate the mode's reminder: tell the fork's model its mode again.
      const reminder = modeReminder(state.permissionMode, { planModeInstructions });
      if (state.permissionMode !== 'default' && !state.pendingReminders.includes(reminder)) {
        state.pendingReminders = [...state.pendingReminders, reminder];
      }
    }
  }
  renewApprovalIds(state);
  return { state, plan };
}

/**
 * The spilled outputs a cut history still names (in a preview, a cleared result's stub, a
 * summary): the outputs of the calls cut off go with them, as the host asked, rather than stay in
 * the fork's state and transcript.
 */
function spillsNamedIn(spilled: NonNullable<SessionState['spilled']>, messages: SessionState['messages']): SessionState['spilled'] {
  const text = JSON.stringify(messages);
  // fromEntries: own properties whatever the handle (a "__proto__" key stays a key).
  return Object.fromEntries(Object.entries(spilled).filter(([handle]) => text.includes(JSON.stringify(handle).slice(1, -1))));
}

/** A fork's pending approvals are its own: new ids, so answering one never answers the other's. */
function renewApprovalIds(state: SessionState): void {
  for (const call of state.openBatch?.calls ?? []) {
    if (call.approval) call.approval.id = `approval_${randomId(12)}`;
    if (call.nested) renewApprovalIds(call.nested.state);
  }
}

/**
 * The source's background tasks that were running keep running there, and report there: in the
 * fork they are ended (`interrupted`, saying so), and its model is told in its next turn, so it
 * never waits on a report that cannot reach it.
 */
function endSourceBackgroundTasks(state: SessionState, forkedFrom: string): void {
  const tasks = state.toolState[BACKGROUND_TASKS_KEY] as Record<string, StoredBackgroundTask> | undefined;
  if (typeof tasks !== 'object' || tasks === null) return;
  const output = `(it was started before this session was forked from session "${forkedFrom}" and runs there: its report goes to that session, not to this one)`;
  for (const [key, task] of Object.entries(tasks)) {
    if (task?.status !== 'running') continue;
    tasks[key] = { ...task, status: 'interrupted', output };
    state.pendingReminders = [...state.pendingReminders, taskEndNotification({ ...task, status: 'interrupted' }, output)];
  }
}
