import { nanoid } from 'nanoid';
import { ConfigurationError } from '../errors/configuration-error.js';
import { modeReminder } from '../permissions/mode-reminder.js';
import type { AgentSnapshot } from './snapshot.js';

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

/** The state of a fork: a new id and a (possibly cut) copy of the history; the plan stays for the caller to copy. */
export function forkSnapshot(source: AgentSnapshot, options: ForkOptions, planModeInstructions?: string): AgentSnapshot {
  const snapshot = structuredClone(source);
  snapshot.sessionId = options.sessionId ?? `session_${nanoid(16)}`;
  const { upTo } = options;
  if (upTo !== undefined) {
    if (!Number.isInteger(upTo) || upTo < 0 || upTo > snapshot.messages.length) {
      throw new ConfigurationError(`fork: upTo must be an integer from 0 to ${snapshot.messages.length} (the number of messages to keep), got ${JSON.stringify(upTo)}.`);
    }
    if (upTo < snapshot.messages.length) {
      let keep = upTo;
      const last = snapshot.messages[keep - 1];
      if (last?.role === 'assistant' && last.content.some((block) => block.type === 'tool_use')) keep--;
      snapshot.messages = snapshot.messages.slice(0, keep);
      delete snapshot.openBatch;
      // The cut history may predate the mode's reminder: tell the fork's model its mode again.
      const reminder = modeReminder(snapshot.permissionMode, { planModeInstructions });
      if (snapshot.permissionMode !== 'default' && !snapshot.pendingReminders.includes(reminder)) {
        snapshot.pendingReminders = [...snapshot.pendingReminders, reminder];
      }
    }
  }
  return snapshot;
}
