import type { ContentBlock, ToolResultBlock, ToolResultContentBlock } from '../model/messages.js';

/** What a result with no output says (as a live tool's empty output does). */
export const NO_OUTPUT = '(no output)';

/**
 * A stored tool result as the API accepts it: blank text blocks in its content go (the API
 * refuses blank text anywhere in a request; a live result never holds any), and a result left
 * with no content, or with blank text only, says `(no output)`, as a live one does. An error
 * result left with no content is left empty, for `isEmptyErrorResult` to give it its sentence.
 * Returns the same block when nothing changes.
 */
export function resultWithoutBlankText(block: ContentBlock): ContentBlock {
  if (block.type !== 'tool_result') return block;
  const result = block as ToolResultBlock;
  const { content } = result;
  if (typeof content === 'string') {
    return content.trim() === '' && content !== '' && result.is_error !== true ? { ...result, content: NO_OUTPUT } : block;
  }
  if (!Array.isArray(content)) return block;
  if ((content as ToolResultContentBlock[]).every(isKeptInner)) return block;
  const kept = (content as ToolResultContentBlock[]).filter(isKeptInner);
  if (kept.length > 0) return { ...result, content: kept };
  return { ...result, content: result.is_error === true ? [] : NO_OUTPUT };
}

/** Whether a block of a result's content is kept: anything but blank text. */
function isKeptInner(inner: ToolResultContentBlock): boolean {
  return inner.type !== 'text' || (typeof inner.text === 'string' && inner.text.trim() !== '');
}
