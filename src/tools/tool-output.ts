import type { ImageBlock, TextBlock } from '../model/messages.js';
import type { ToolOutput } from './types.js';

/**
 * Builds an explicit tool output; use `isError: true` to report a failure to the model without
 * throwing.
 * @example return toolOutput('File not found: notes.md', { isError: true });
 */
export function toolOutput(
  content: string | Array<TextBlock | ImageBlock>,
  options: { isError?: boolean } = {},
): ToolOutput {
  return { type: 'tool-output', content, isError: options.isError ?? false };
}

/** True for a value built by {@link toolOutput}. */
export function isToolOutput(value: unknown): value is ToolOutput {
  return typeof value === 'object' && value !== null && (value as ToolOutput).type === 'tool-output';
}
