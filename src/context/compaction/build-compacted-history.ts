import type { ContentBlock, Message, TextBlock } from '../../model/messages.js';
import { contentBlocks } from '../message-blocks.js';
import { UnsafeCompactionCutError } from '../../errors/unsafe-compaction-cut-error.js';
import { isSafeCut } from './find-compaction-cut.js';
import { sessionStateBlockCount, sessionStateBlocks, type CompactionState } from './session-state-blocks.js';
import { argumentError, isObjectValue } from '../../errors/argument-error.js';

/** The first line of the summary block of a compacted history. */
export const SUMMARY_HEADING = 'The earlier conversation was compacted. Summary of it:';

/** The text block before the user's latest message when a compaction restates it (`latestPrompt`). */
export const LATEST_PROMPT_HEADING = "The user's latest message, restated exactly as sent (the summary above includes it and what was done about it so far):";

/** What carries on after the summary when nothing of the conversation is kept. */
export const DEFAULT_CONTINUATION =
  'Continue the work from where it stopped, using the summary and the session state above; do not ask the user to repeat anything.';

/** Options of {@link buildCompactedHistory}. */
export interface BuildCompactedHistoryOptions {
  /** The history before compaction. */
  messages: readonly Message[];
  /** The first kept message (a safe cut, see `isSafeCut`); `messages.length` keeps nothing. */
  cut: number;
  /** The handoff summary of `messages[0..cut)`. */
  summary: string;
  /** The agent's state to restate verbatim; see {@link CompactionState}. */
  state: CompactionState;
  /**
   * The content of the user's latest message when it is among the summarized ones: restated
   * verbatim after the state, under {@link LATEST_PROMPT_HEADING}, so the request the work answers
   * is never only paraphrased.
   * @default undefined (nothing restated)
   */
  latestPrompt?: readonly ContentBlock[];
  /**
   * The last text of the opening message when nothing of the conversation is kept.
   * @default DEFAULT_CONTINUATION
   */
  continuation?: string;
}

/** The history after a compaction, and how it was made. */
export interface CompactedHistory {
  /** The new history: one opening user message, then the kept messages, shared by reference. */
  messages: Message[];
  /** How many messages the summary replaced. */
  summarized: number;
  /** How many messages were kept verbatim. */
  kept: number;
}

/**
 * Builds the history after a compaction: one user message opening with the summary and the
 * agent's state restated from its records (see `sessionStateBlocks`), and the user's latest
 * message when it was summarized (`latestPrompt`), followed by the kept messages unchanged. When
 * the first kept message is a user message its content joins the opening one (so roles still
 * alternate); when nothing is kept, a continuation line ends it.
 * Every tool call in the result keeps its result: the cut must be safe.
 * @param options - see {@link BuildCompactedHistoryOptions}.
 * @throws UnsafeCompactionCutError when the cut is not safe (a tool call before it answered after it).
 */
export function buildCompactedHistory(options: BuildCompactedHistoryOptions): CompactedHistory {
  if (!isObjectValue(options)) throw argumentError('buildCompactedHistory', 'options', 'an options object ({ messages, cut, summary, state })', options);
  if (!Array.isArray(options.messages)) throw argumentError('buildCompactedHistory', 'options.messages', 'an array of messages', options.messages);
  if (typeof options.summary !== 'string') throw argumentError('buildCompactedHistory', 'options.summary', 'a string (the summary the model wrote)', options.summary);
  if (!isObjectValue(options.state)) throw argumentError('buildCompactedHistory', 'options.state', 'the compaction state ({ permissionMode, todos, ... })', options.state);
  const { messages, cut } = options;
  if (!isSafeCut(messages, cut)) {
    throw new UnsafeCompactionCutError(cut, messages.length);
  }
  const opening: ContentBlock[] = [{ type: 'text', text: `${SUMMARY_HEADING}\n\n${options.summary.trim()}` }, ...sessionStateBlocks(options.state)];
  if (options.latestPrompt?.length) opening.push({ type: 'text', text: LATEST_PROMPT_HEADING } as TextBlock, ...options.latestPrompt);
  const kept = messages.slice(cut);
  const first = kept[0];
  if (first === undefined) {
    opening.push({ type: 'text', text: options.continuation ?? DEFAULT_CONTINUATION } as TextBlock);
    return { messages: [{ role: 'user', content: opening }], summarized: cut, kept: 0 };
  }
  if (first.role === 'user') {
    return { messages: [{ role: 'user', content: [...opening, ...contentBlocks(first)] }, ...kept.slice(1)], summarized: cut, kept: kept.length };
  }
  return { messages: [{ role: 'user', content: opening }, ...kept], summarized: cut, kept: kept.length };
}

/** Whether a message is a compacted history's opening (its first block the summary). */
function isOpening(message: Message, blocks: readonly ContentBlock[]): boolean {
  const first = blocks[0];
  return message.role === 'user' && first?.type === 'text' && (first as TextBlock).text.startsWith(SUMMARY_HEADING);
}

/**
 * The state a compaction restated in a compacted history's opening message (the blocks
 * `sessionStateBlocks` wrote, right after the summary); empty for any other message.
 * @internal
 */
export function restatedStateInOpening(message: Message): TextBlock[] {
  const blocks = contentBlocks(message);
  if (!isOpening(message, blocks)) return [];
  return blocks.slice(1, 1 + sessionStateBlockCount(blocks, 1)) as TextBlock[];
}

/**
 * The blocks of a compacted history's opening message that are the conversation's own — the
 * restated latest message and the content of a first kept user message merged into it — without
 * what the compaction wrote (the summary, the restated state, the headings, the continuation).
 * @returns undefined when the message is not such an opening.
 * @internal
 */
export function conversationInOpening(message: Message): ContentBlock[] | undefined {
  const blocks = contentBlocks(message);
  if (!isOpening(message, blocks)) return undefined;
  // Told apart by where the compaction put them, not by how a text opens: the user's own message
  // may open like a state block ("The approved plan (…) is wrong").
  let at = 1 + sessionStateBlockCount(blocks, 1);
  const isText = (block: ContentBlock | undefined, text: string) => block?.type === 'text' && (block as TextBlock).text === text;
  if (isText(blocks[at], LATEST_PROMPT_HEADING)) at++;
  const end = blocks.length > at && isText(blocks[blocks.length - 1], DEFAULT_CONTINUATION) ? blocks.length - 1 : blocks.length;
  return blocks.slice(at, end);
}
