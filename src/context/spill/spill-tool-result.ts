import { codePointBoundary } from '../../model/code-point-boundary.js';
import { groupDigits } from '../../model/group-digits.js';
import type { ImageBlock, TextBlock, ToolResultBlock } from '../../model/messages.js';
import type { SpilledOutput } from './spill-store.js';
import { argumentError, isObjectValue } from '../../errors/argument-error.js';

/** The name of the built-in tool that pages through spilled outputs. */
export const READ_TOOL_OUTPUT_TOOL_NAME = 'ReadToolOutput';

/** Options of {@link spillToolResult}. */
export interface SpillToolResultOptions {
  /** The tool that produced the result, kept with the output. */
  toolName: string;
  /**
   * Results whose text is longer than this many characters are spilled.
   * @default 40_000
   */
  maxChars?: number;
  /**
   * Characters of the beginning shown in the preview.
   * @default 2_000
   */
  headChars?: number;
  /**
   * Characters of the end shown in the preview.
   * @default 1_000
   */
  tailChars?: number;
}

/** What {@link spillToolResult} decided. */
export interface SpillResult {
  /** The result to send: the original when it fits, else a preview that names the handle. */
  result: ToolResultBlock;
  /** The output to keep in a `SpillStore`, when the result was spilled. */
  spilled?: SpilledOutput;
}

/**
 * The handle a spilled output of this call is kept under: stable for a call, so replaying a
 * session finds the same handle.
 * @param toolUseId - the call's id.
 */
export function spillHandle(toolUseId: string): string {
  if (typeof toolUseId !== 'string') throw argumentError('spillHandle', 'toolUseId', "the call's toolUseId (a string)", toolUseId);
  return `out_${toolUseId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/**
 * Keeps a too-long tool result out of the context: when its text (all text blocks together) is
 * longer than `maxChars`, the model gets a preview (the head and the tail, cut at line ends where
 * one is near) with a note naming the handle and how to read the rest with `ReadToolOutput`;
 * images stay in the result. Pure: storing the spilled output is the caller's part.
 * @param result - the tool result as the tool produced it.
 * @param options - see {@link SpillToolResultOptions}.
 * @example
 * const { result: sent, spilled } = spillToolResult(result, { toolName: 'Bash' });
 * if (spilled) await store.save(spilled);
 */
export function spillToolResult(result: ToolResultBlock, options: SpillToolResultOptions): SpillResult {
  if (!isObjectValue(result) || (typeof result.content !== 'string' && !Array.isArray(result.content))) throw argumentError('spillToolResult', 'result', "a tool result block ({ type: 'tool_result', tool_use_id, content })", result);
  if (!isObjectValue(options) || typeof options.toolName !== 'string') throw argumentError('spillToolResult', 'options', 'an options object with the toolName ({ toolName, maxChars })', options);
  return spillToolResultUnchecked(result, options);
}

/** {@link spillToolResult} without its argument checks, for the library's own calls (their arguments are known good). @internal */
export function spillToolResultUnchecked(result: ToolResultBlock, options: SpillToolResultOptions): SpillResult {
  const maxChars = options.maxChars ?? 40_000;
  const blocks = typeof result.content === 'string' ? [{ type: 'text', text: result.content } as TextBlock] : result.content;
  const text = blocks.filter((block): block is TextBlock => block.type === 'text').map((block) => block.text).join('\n');
  if (text.length <= maxChars) return { result };
  const handle = spillHandle(result.tool_use_id);
  // The preview never shows more than maxChars of the text (text.length > maxChars here).
  const headBudget = Math.min(options.headChars ?? 2_000, maxChars);
  const tailBudget = Math.min(options.tailChars ?? 1_000, maxChars - headBudget);
  // Cuts never split a surrogate pair; the tail's start moves forward so the budget holds.
  const headEnd = codePointBoundary(text, lineEndNear(text, headBudget, 'back'));
  const tailStart = Math.max(headEnd, codePointBoundary(text, lineEndNear(text, text.length - tailBudget, 'forward'), 'forward'));
  const lines = text.split('\n').length;
  const note =
    `[This output is ${groupDigits(text.length)} characters (${groupDigits(lines)} lines), too long to show in full. It is kept as "${handle}": ` +
    `the first ${groupDigits(headEnd)} and the last ${groupDigits(text.length - tailStart)} characters are shown. ` +
    `Read any part with ${READ_TOOL_OUTPUT_TOOL_NAME}({ "handle": "${handle}", "offset": ${headEnd} }), or find lines with its "search".]`;
  const preview = `${note}\n\n${text.slice(0, headEnd)}\n\n[… ${groupDigits(tailStart - headEnd)} characters not shown …]\n\n${text.slice(tailStart)}`;
  const images = blocks.filter((block): block is ImageBlock => block.type === 'image');
  const content: ToolResultBlock['content'] = images.length > 0 ? [{ type: 'text', text: preview }, ...images] : preview;
  return {
    result: { ...result, content },
    spilled: { handle, toolUseId: result.tool_use_id, toolName: options.toolName, text },
  };
}

/** Moves a cut to just after a line end within the last (or first) quarter of the window, if there is one. */
function lineEndNear(text: string, at: number, direction: 'back' | 'forward'): number {
  const reach = Math.floor(direction === 'back' ? at / 4 : (text.length - at) / 4);
  if (direction === 'back') {
    const newline = text.lastIndexOf('\n', at - 1);
    return newline >= 0 && newline >= at - reach ? newline + 1 : at;
  }
  const newline = text.indexOf('\n', at);
  return newline >= 0 && newline <= at + reach ? newline + 1 : at;
}
