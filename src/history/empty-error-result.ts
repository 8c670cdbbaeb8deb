import type { ContentBlock, ToolResultBlock } from '../model/messages.js';

/** What the model is told for a refusal given without a reason (a denial whose message is blank). */
export const REFUSED_WITHOUT_REASON = 'The call was not run: it was refused, and no reason was given.';

/**
 * True for an error result with no content, which the API refuses ("content cannot be empty if
 * `is_error` is true") — on every later request, as the history is sent again each turn.
 */
export function isEmptyErrorResult(block: ContentBlock | ToolResultBlock | undefined): boolean {
  if (block?.type !== 'tool_result' || (block as ToolResultBlock).is_error !== true) return false;
  const content = (block as ToolResultBlock).content;
  return content === undefined || content === '' || (Array.isArray(content) && content.length === 0);
}
