import { headOfText, wellFormedText } from '../model/code-point-boundary.js';
import type { ImageBlock, TextBlock, ToolResultContentBlock } from '../model/messages.js';
import { isToolOutput } from '../tools/tool-output.js';

/** Content for a tool_result and whether it reports an error. */
export interface ToolResultContent {
  /** A string content holds no lone surrogate (`truncateText` replaced each with U+FFFD). */
  content: string | ToolResultContentBlock[];
  isError: boolean;
}

/** Content blocks a tool may return as they are: text with its text, images with their source (else the value is sent as JSON). */
function isBlockArray(value: unknown): value is Array<TextBlock | ImageBlock> {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (block) =>
        typeof block === 'object' &&
        block !== null &&
        ((block.type === 'text' && typeof block.text === 'string') || (block.type === 'image' && typeof block.source === 'object' && block.source !== null)),
    )
  );
}

/** The note a cut result ends with. */
function truncationNote(shown: number, total: number): string {
  return `[Output truncated: showing the first ${shown} of ${total} characters.]`;
}

/**
 * Truncates text past `maxChars` (never inside a surrogate pair), saying so in the text; a lone
 * surrogate in it (which the API refuses) becomes U+FFFD.
 */
export function truncateText(given: string, maxChars: number): string {
  const text = wellFormedText(given);
  if (text.length <= maxChars) return text;
  const head = headOfText(text, maxChars);
  return `${head}\n\n${truncationNote(head.length, text.length)}`;
}

/**
 * Bounds the text of a result made of blocks, all its text blocks together, to `maxChars`
 * (never inside a surrogate pair; lone surrogates become U+FFFD): the text block the limit falls
 * in is cut and ends with one note, later text blocks are left out, other blocks (images) are
 * kept. A result made of many blocks is bounded like one long text.
 */
export function truncateBlocks(blocks: readonly ToolResultContentBlock[], maxChars: number): ToolResultContentBlock[] {
  const texts = blocks.map((block) => (block.type === 'text' ? wellFormedText(block.text) : ''));
  const total = texts.reduce((sum, text) => sum + text.length, 0);
  const kept: ToolResultContentBlock[] = [];
  let left = maxChars;
  let cut = false;
  blocks.forEach((block, index) => {
    if (block.type !== 'text') {
      kept.push(block);
      return;
    }
    const text = texts[index]!;
    if (cut) return;
    if (total <= maxChars || text.length <= left) {
      kept.push(text === block.text ? block : { ...block, text });
      left -= text.length;
      return;
    }
    cut = true;
    const head = headOfText(text, left);
    const note = truncationNote(maxChars - left + head.length, total);
    kept.push({ ...block, text: head ? `${head}\n\n${note}` : note });
  });
  return kept;
}

/**
 * Turns what a tool returned into tool_result content: strings and content blocks as they are,
 * `toolOutput(...)` unwrapped, anything else as JSON; text past `maxChars` (a result's blocks
 * counted together) truncated with a note.
 */
export function toToolResultContent(value: unknown, maxChars: number): ToolResultContent {
  let content: string | ToolResultContentBlock[];
  let isError = false;
  if (isToolOutput(value)) {
    content = value.content;
    isError = value.isError ?? false;
  } else if (typeof value === 'string') {
    content = value;
  } else if (isBlockArray(value)) {
    content = value;
  } else if (value === undefined || value === null) {
    content = '(no output)';
  } else {
    content = JSON.stringify(value, null, 2) ?? String(value);
  }
  if (typeof content === 'string') {
    content = truncateText(content, maxChars);
  } else {
    // The API refuses blank text blocks anywhere in a later request: leave them out.
    content = truncateBlocks(
      content.filter((block) => block.type !== 'text' || (typeof block.text === 'string' && block.text.trim() !== '')),
      maxChars,
    );
    if (content.length === 0) content = '';
  }
  if (typeof content === 'string' && content.trim().length === 0) content = '(no output)';
  return { content, isError };
}
