import { codePointBoundary, wellFormedText } from '../model/code-point-boundary.js';
import type { ImageBlock, TextBlock, ToolResultContentBlock } from '../model/messages.js';
import { isToolOutput } from '../tools/tool-output.js';

/** Content for a tool_result and whether it reports an error. */
export interface ToolResultContent {
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

/**
 * Truncates text past `maxChars` (never inside a surrogate pair), saying so in the text; a lone
 * surrogate in it (which the API refuses) becomes U+FFFD.
 */
export function truncateText(given: string, maxChars: number): string {
  const text = wellFormedText(given);
  if (text.length <= maxChars) return text;
  const end = codePointBoundary(text, maxChars);
  return `${text.slice(0, end)}\n\n[Output truncated: showing the first ${end} of ${text.length} characters.]`;
}

/**
 * Turns what a tool returned into tool_result content: strings and content blocks as they are,
 * `toolOutput(...)` unwrapped, anything else as JSON; long text truncated with a note.
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
    content = content
      .filter((block) => block.type !== 'text' || (typeof block.text === 'string' && block.text.trim() !== ''))
      .map((block) => (block.type === 'text' ? { ...block, text: truncateText(block.text, maxChars) } : block));
    if (content.length === 0) content = '';
  }
  if (typeof content === 'string' && content.trim().length === 0) content = '(no output)';
  return { content, isError };
}
