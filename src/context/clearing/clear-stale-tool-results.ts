import { headOfText } from '../../model/code-point-boundary.js';
import { groupDigits } from '../../model/group-digits.js';
import type { ContentBlock, Message, ToolResultBlock, ToolUseBlock } from '../../model/messages.js';
import { READ_TOOL_OUTPUT_TOOL_NAME } from '../spill/spill-tool-result.js';
import { argumentError, isObjectValue } from '../../errors/argument-error.js';

/** The beginning of every stub, so a stub is never cleared again. */
export const CLEARED_TOOL_RESULT_PREFIX = '[Old tool result cleared to save context:';

/** A tool result that was cleared, for the host's records and events. */
export interface ClearedToolResult {
  toolUseId: string;
  toolName: string;
  /** Characters of text the result held. */
  chars: number;
}

/** What a stub describes. */
export interface ClearedCall {
  toolUseId: string;
  toolName: string;
  /** The call's input. */
  input: unknown;
  /** The result that is being cleared. */
  result: ToolResultBlock;
  /** Characters of text the result held. */
  chars: number;
  /** The handle of the whole output when it was spilled. */
  spilledHandle: string | undefined;
}

/** Options of {@link clearStaleToolResults}. */
export interface ClearStaleToolResultsOptions {
  /**
   * Results of the tool calls of the last this-many assistant messages are kept.
   * @default 3
   */
  keepRecentTurns?: number;
  /**
   * Tools whose results are never cleared (e.g. a memory tool, or one whose output is the task).
   * @default []
   */
  excludeTools?: readonly string[];
  /**
   * Results with less text than this are not worth a stub and stay.
   * @default 500
   */
  minimumResultChars?: number;
  /**
   * Clear nothing unless at least this many characters go: every clearing rewrites the history
   * (a prompt-cache write), so it should free enough to be worth it.
   * @default 0
   */
  clearAtLeastChars?: number;
  /**
   * The spill handle of a call's whole output, when it was kept aside (e.g. `spillHandle(id)`
   * when the spill store has it); the stub then says how to read it again.
   * @default () => undefined
   */
  spilledHandle?: (toolUseId: string) => string | undefined;
  /**
   * Writes the stub's text.
   * @default describeClearedCall
   */
  stub?: (call: ClearedCall) => string;
}

/** What {@link clearStaleToolResults} did. */
export interface ClearStaleToolResultsResult {
  /** The history to use: the input array itself when nothing was cleared. */
  messages: Message[];
  /** The results replaced by stubs, oldest first. */
  cleared: ClearedToolResult[];
  /** Characters of text removed (the stubs' own text not subtracted). */
  clearedChars: number;
}

/**
 * The default stub: which call it was, how big its result was, how it began, and how to get it
 * again (`ReadToolOutput` for a spilled output, else repeating the call if that is safe).
 * @param call - what is being cleared.
 */
export function describeClearedCall(call: ClearedCall): string {
  if (!isObjectValue(call) || !isObjectValue(call.result)) throw argumentError('describeClearedCall', 'call', 'a cleared call ({ name, input, result })', call);
  const input = jsonPreview(call.input, 200);
  const text = toolResultText(call.result);
  const images = Array.isArray(call.result.content) ? call.result.content.filter((block) => block.type === 'image').length : 0;
  const began = text.trim() === '' ? '' : ` It began: ${JSON.stringify(headOfText(text, 120))}${text.length > 120 ? '…' : ''}.`;
  const again = call.spilledHandle
    ? ` Read it again with ${READ_TOOL_OUTPUT_TOOL_NAME}({ "handle": "${call.spilledHandle}" }).`
    : ' Make the call again if you need it and it is safe to repeat.';
  const size = `${groupDigits(call.chars)} characters${images > 0 ? ` and ${images} image(s)` : ''}`;
  return `${CLEARED_TOOL_RESULT_PREFIX} the ${call.result.is_error ? 'error ' : ''}result of ${call.toolName}(${input}), ${size}.${began}${again}]`;
}

/**
 * Replaces old tool results by short stubs that say what was there and how to get it again.
 * Results answering the last `keepRecentTurns` assistant messages are never touched, nor are
 * excluded tools, small results or stubs. Pure: the input is not changed; messages with nothing
 * cleared are shared by reference; every `tool_use` keeps its `tool_result` (same id, same
 * place, same `is_error`).
 * @param messages - the history.
 * @param options - see {@link ClearStaleToolResultsOptions}.
 */
export function clearStaleToolResults(messages: Message[], options: ClearStaleToolResultsOptions = {}): ClearStaleToolResultsResult {
  if (!Array.isArray(messages)) throw argumentError('clearStaleToolResults', 'messages', 'an array of messages', messages);
  if (!isObjectValue(options)) throw argumentError('clearStaleToolResults', 'options', 'an options object or nothing', options);
  const keepTurns = options.keepRecentTurns ?? 3;
  const excluded = new Set(options.excludeTools ?? []);
  const minimum = options.minimumResultChars ?? 500;
  const stub = options.stub ?? describeClearedCall;
  const spilledHandle = options.spilledHandle ?? (() => undefined);
  // The first message of the protected tail: the keepTurns-th assistant message from the end.
  let protectedFrom = messages.length;
  for (let index = messages.length - 1, seen = 0; index >= 0 && seen < keepTurns; index--) {
    if (messages[index]!.role === 'assistant') {
      seen++;
      protectedFrom = index;
    }
  }
  // First what would go, then (only when it is enough) the stubs: past the clearing threshold a
  // history is checked before every model call, and most checks clear nothing (less than
  // `clearAtLeastChars` would go), so a stub written for each candidate would be thrown away.
  const calls = new Map<string, ToolUseBlock>();
  const candidates: Array<{ index: number; position: number; call: ToolUseBlock; result: ToolResultBlock; chars: number }> = [];
  let clearedChars = 0;
  for (let index = 0; index < protectedFrom; index++) {
    const message = messages[index]!;
    if (message.role === 'assistant') {
      for (const block of message.content) if (block.type === 'tool_use') calls.set((block as ToolUseBlock).id, block as ToolUseBlock);
      continue;
    }
    if (typeof message.content === 'string') continue;
    message.content.forEach((block, position) => {
      if (block.type !== 'tool_result') return;
      const result = block as ToolResultBlock;
      const call = calls.get(result.tool_use_id);
      const text = toolResultText(result);
      const hasImage = Array.isArray(result.content) && result.content.some((inner) => inner.type === 'image');
      if (!call || excluded.has(call.name) || text.startsWith(CLEARED_TOOL_RESULT_PREFIX)) return;
      if (text.length < minimum && !hasImage) return;
      candidates.push({ index, position, call, result, chars: text.length });
      clearedChars += text.length;
    });
  }
  if (candidates.length === 0 || clearedChars < (options.clearAtLeastChars ?? 0)) return { messages, cleared: [], clearedChars: 0 };
  const changed = new Map<number, ContentBlock[]>();
  const cleared: ClearedToolResult[] = [];
  for (const { index, position, call, result, chars } of candidates) {
    const description = stub({ toolUseId: call.id, toolName: call.name, input: call.input, result, chars, spilledHandle: spilledHandle(call.id) });
    let content = changed.get(index);
    if (content === undefined) changed.set(index, (content = [...(messages[index]!.content as ContentBlock[])]));
    content[position] = { ...result, content: description };
    cleared.push({ toolUseId: call.id, toolName: call.name, chars });
  }
  const withStubs = messages.map((message, index) => {
    const content = changed.get(index);
    return content === undefined ? message : { role: 'user' as const, content };
  });
  return { messages: withStubs, cleared, clearedChars };
}

/** The text of a tool result: its string, or its text blocks joined by newlines. @internal */
export function toolResultText(result: ToolResultBlock): string {
  if (typeof result.content === 'string') return result.content;
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

function jsonPreview(value: unknown, max: number): string {
  let json: string;
  try {
    json = JSON.stringify(value) ?? '';
  } catch {
    json = '…';
  }
  return json.length > max ? `${headOfText(json, max)}…` : json;
}
