import { wellFormedValue } from '../model/well-formed-value.js';
import type { Message } from '../model/messages.js';
import type { EntryDraft } from './entries.js';

/** Thinking blocks go back to the API exactly as they came: their signature covers the text. */
const isThinking = (block: object): boolean => {
  const type = (block as { type?: unknown }).type;
  return type === 'thinking' || type === 'redacted_thinking';
};

/**
 * The messages with no lone surrogate (each replaced by U+FFFD; thinking blocks left as they are):
 * the same array when there is none. For a history that did not come through {@link wellFormedEntry}
 * (a resumed snapshot, a transcript written before it).
 */
export function wellFormedMessages(messages: Message[]): Message[] {
  return wellFormedValue(messages, isThinking);
}

/**
 * The entry with no lone surrogate in what it puts in the history (a message, a tool result, a
 * checkpoint's messages), each replaced by U+FFFD: the Messages API refuses a request holding one
 * ("no low surrogate in string"), and the history is sent on every later request, so one bad
 * string from a tool error, a host's denial, a hook or a prompt would end the session. The same
 * entry when there is none.
 */
export function wellFormedEntry(draft: EntryDraft): EntryDraft {
  switch (draft.kind) {
    case 'message': {
      const message = wellFormedValue(draft.message, isThinking);
      return message === draft.message ? draft : { ...draft, message };
    }
    case 'tool-result': {
      const result = wellFormedValue(draft.result);
      return result === draft.result ? draft : { ...draft, result };
    }
    case 'reminder': {
      const text = wellFormedValue(draft.text);
      return text === draft.text ? draft : { ...draft, text };
    }
    case 'checkpoint': {
      const messages = wellFormedMessages(draft.state.messages);
      return messages === draft.state.messages ? draft : { ...draft, state: { ...draft.state, messages } };
    }
    default:
      return draft;
  }
}
