import { isSafeCut } from '../context/index.js';
import { contentBlocks } from '../context/message-blocks.js';
import type { Message, TextBlock } from '../model/messages.js';

/** Opens the shortened history a summary is last asked from. */
export const MIDDLE_LEFT_OUT_NOTE = '[The conversation was too long to summarize at once, so its middle is left out. Its first message follows, then its later part.]';

/** Marks where the later part of a shortened history starts. */
export const LATER_PART_NOTE = '[The later part of the conversation:]';

/**
 * A shorter history to ask a summary from, when the whole one is too long for the model: the
 * first message (the task statement, or an earlier compaction's summary and restated state) and
 * the later half, from a user message that answers no call, with the middle left out. The
 * user's latest message is always in the later half (no later user message can open it). The
 * first message and the one opening the later half join into one user message, so roles still
 * alternate and every call keeps its result.
 * @returns the history as it is when it has no such later start.
 */
export function startAndLaterHalf(messages: readonly Message[]): Message[] {
  const from = laterSafeStart(messages);
  if (from === undefined) return [...messages];
  const start = contentBlocks(messages[0]!).filter((block) => block.type !== 'tool_result');
  const note = (text: string): TextBlock => ({ type: 'text', text });
  const opening: Message = { role: 'user', content: [note(MIDDLE_LEFT_OUT_NOTE), ...start, note(LATER_PART_NOTE), ...contentBlocks(messages[from]!)] };
  return [opening, ...messages.slice(from + 1)];
}

/** A safe start (a user message that answers no call) at or past the middle of a history, after the first message. */
function laterSafeStart(messages: readonly Message[]): number | undefined {
  for (let index = Math.max(2, Math.floor(messages.length / 2)); index < messages.length; index++) {
    if (messages[index]!.role === 'user' && isSafeCut(messages, index)) return index;
  }
  return undefined;
}
