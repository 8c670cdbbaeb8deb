import type { ToolResultContentBlock } from '../model/messages.js';
import type { ToolOutput } from './types.js';

/**
 * Builds an explicit tool output; use `isError: true` to report a failure to the model without
 * throwing. Content blocks may be text, images, and `tool_reference` blocks naming deferred tools
 * (a tool search's answer, for models that expand them).
 * @example return toolOutput('File not found: notes.md', { isError: true });
 */
export function toolOutput(
  content: string | ToolResultContentBlock[],
  options: { isError?: boolean } = {},
): ToolOutput {
  return { type: 'tool-output', content, isError: options.isError ?? false };
}

/** True for a value built by {@link toolOutput}. */
export function isToolOutput(value: unknown): value is ToolOutput {
  return typeof value === 'object' && value !== null && (value as ToolOutput).type === 'tool-output';
}
