import type { Message } from '../model/messages.js';
import type { SessionState } from './session-state.js';

/**
 * Leaves the refused answer out of the history (see `AnswerWithheldEntry`): the last assistant
 * message goes when the history ends on it, or on one user message of tool results only (the
 * answers to its calls, none of which ran), which goes with it; `note` is queued for the next user
 * message. The history is a new array (rewritten, not appended to), so the messages handed out
 * before keep theirs. A history that ends otherwise (a compaction summarized the answer away, a
 * prompt follows it) loses nothing, and the model is still told.
 */
export function withholdRefusedAnswer(state: SessionState, note: string): void {
  const at = refusedAnswerAt(state.messages);
  if (at !== undefined) {
    state.messages = state.messages.slice(0, at);
    state.messageUsage = state.messageUsage.slice(0, at);
  }
  delete state.openBatch;
  if (state.endedOnRefusal !== undefined) delete state.endedOnRefusal;
  state.pendingReminders = [...state.pendingReminders, note];
}

/**
 * Where the refused answer of a history that ended on a refusal starts: its last assistant message,
 * when the history ends on it or on one user message of tool results only; else undefined.
 */
export function refusedAnswerAt(messages: readonly Message[]): number | undefined {
  let at = messages.length - 1;
  if (messages[at]?.role === 'user' && resultsOnly(messages[at]!)) at--;
  return messages[at]?.role === 'assistant' ? at : undefined;
}

/** Whether a user message holds tool results and nothing else. */
function resultsOnly(message: Message): boolean {
  return typeof message.content !== 'string' && message.content.length > 0 && message.content.every((block) => block.type === 'tool_result');
}
