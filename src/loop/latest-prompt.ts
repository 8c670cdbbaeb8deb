import { conversationInOpening, toolResultText } from '../context/index.js';
import { contentBlocks } from '../context/message-blocks.js';
import type { ContentBlock, Message, ToolResultBlock } from '../model/messages.js';
import { SUPERSEDED_BY_PROMPT } from './refuse-call.js';

/** The user's latest message: where it is in the history, and its content without tool results. */
export interface LatestPrompt {
  /** Its index in the history. */
  index: number;
  /** Its blocks other than tool results (the prompt, with the reminders and hook context sent with it). */
  blocks: ContentBlock[];
}

/**
 * The user's latest message in a history: the last user message with content of its own (text,
 * images, documents) that does not merely answer tool calls. A message of tool results is not
 * one, even with reminders queued on it; a prompt that superseded a pending approval is, though
 * the refused calls' results open it. In a compacted history's opening message, only what the
 * conversation put there counts (not the summary or the restated state).
 * @returns undefined when the history has none.
 */
export function latestPrompt(messages: readonly Message[]): LatestPrompt | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'user') continue;
    const blocks = (index === 0 ? conversationInOpening(message) : undefined) ?? contentBlocks(message);
    const results = blocks.filter((block): block is ToolResultBlock => block.type === 'tool_result');
    if (results.length > 0 && !results.some((result) => result.is_error === true && toolResultText(result) === SUPERSEDED_BY_PROMPT)) continue;
    const own = blocks.filter((block) => block.type !== 'tool_result');
    if (own.length > 0) return { index, blocks: own };
  }
  return undefined;
}
