import type { ContentBlock, ImageBlock, Message, ToolResultBlock, ToolResultContentBlock } from '../model/messages.js';

/** An image block, or a document block (which the message types know only as a block of type `document`). */
export type MediaBlock = ImageBlock | (ContentBlock & { type: 'document' });

/**
 * Calls `visit` with every image and document block of `messages[from..to)`, tool results' included,
 * oldest first, until `visit` returns true.
 * @returns whether a `visit` returned true (the walk stopped there).
 */
export function forEachMedia(messages: readonly Message[], visit: (block: MediaBlock) => boolean | void, from = 0, to = messages.length): boolean {
  for (let index = from; index < to; index++) {
    const content = messages[index]!.content;
    if (typeof content === 'string') continue;
    for (const block of content) {
      if (block.type === 'image' || block.type === 'document') {
        if (visit(block as MediaBlock)) return true;
      } else if (block.type === 'tool_result' && Array.isArray((block as ToolResultBlock).content)) {
        for (const inner of (block as ToolResultBlock).content as ToolResultContentBlock[]) {
          const type = (inner as { type: string }).type;
          if ((type === 'image' || type === 'document') && visit(inner as MediaBlock)) return true;
        }
      }
    }
  }
  return false;
}
