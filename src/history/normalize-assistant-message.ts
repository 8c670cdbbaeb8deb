import type { AssistantMessage, ContentBlock, TextBlock, ToolUseBlock } from '../model/messages.js';
import { jsonBoundsProblem, TOOL_INPUT_BOUNDS } from './json-bounds.js';

/** A tool call of a model's message that must be answered with an error instead of running. */
export interface RefusedToolCall {
  toolUseId: string;
  toolName: string;
  /** What the model is told. */
  message: string;
}

/** What {@link normalizeAssistantMessage} returns. */
export interface NormalizedAssistantMessage {
  /** The message as it may be kept in the history. */
  message: AssistantMessage;
  /** Calls to answer with an error result. */
  refused: RefusedToolCall[];
  /** What was changed, in sentences (empty when nothing was). */
  changes: string[];
}

/** What the API accepts as a tool_use id. */
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;

/** Text with nothing but whitespace; the API refuses such blocks in any later request. */
export function isBlankText(block: ContentBlock): boolean {
  return block.type === 'text' && (typeof (block as { text?: unknown }).text !== 'string' || (block as { text: string }).text.trim() === '');
}

/**
 * Makes a model's message safe to keep in the history, so that no later request is refused:
 * drops empty and whitespace-only text blocks (real models emit them), gives a `tool_use` whose
 * id is missing, malformed or already used in the message a fresh id, and replaces an input
 * that is not a plain JSON object within bounds (nested 30,000 levels deep, say) with an empty
 * object. Those calls are listed in `refused`: they are answered with an error, never run.
 * `takenIds` are ids the message may not reuse (those of the history before it).
 * Trailing whitespace of a final text block is trimmed (a request ending with the message, after
 * `pause_turn`, is refused otherwise). Thinking blocks and blocks of unknown types are kept as they are.
 */
export function normalizeAssistantMessage(message: AssistantMessage, options: { takenIds?: Iterable<string> } = {}): NormalizedAssistantMessage {
  const refused: RefusedToolCall[] = [];
  const changes: string[] = [];
  if (isKeptAsItIs(message, options.takenIds)) return { message, refused, changes };
  // Ids already used in the history (by the message this one continues after pause_turn, or by
  // any earlier one) count as taken: the API wants every id unique in a request.
  const taken: { has(id: string): boolean } = options.takenIds instanceof Set ? options.takenIds : new Set(options.takenIds ?? []);
  const seen = new Set<string>();
  const used = { has: (id: string) => seen.has(id) || taken.has(id) };
  let blank = 0;
  const content: ContentBlock[] = [];
  for (const block of Array.isArray(message.content) ? message.content : []) {
    if (isBlankText(block)) {
      blank++;
      continue;
    }
    if (block.type !== 'tool_use') {
      content.push(block);
      continue;
    }
    const use = block as ToolUseBlock;
    const name = typeof use.name === 'string' && use.name !== '' ? use.name : String(use.name || 'unnamed_tool');
    let id = use.id;
    let problem: string | undefined;
    if (typeof id !== 'string' || !TOOL_USE_ID.test(id) || used.has(id)) {
      problem =
        typeof id === 'string' && seen.has(id)
          ? `its id "${id}" was already used by another call in the same message`
          : typeof id === 'string' && taken.has(id)
            ? `its id "${id}" was already used by an earlier call in this conversation`
            : 'its id is not a valid tool_use id';
      id = freshId(typeof id === 'string' ? id : 'toolu', used);
    }
    seen.add(id);
    let input = use.input;
    const inputProblem =
      typeof input !== 'object' || input === null || Array.isArray(input) ? 'its input is not a JSON object' : jsonBoundsProblem(input, TOOL_INPUT_BOUNDS);
    if (inputProblem) {
      problem = problem ? `${problem}, and ${inputProblem.startsWith('its') ? inputProblem : `its input is ${inputProblem}`}` : inputProblem.startsWith('its') ? inputProblem : `its input is ${inputProblem}`;
      input = {};
    }
    if (problem) {
      refused.push({ toolUseId: id, toolName: name, message: `This call of "${name}" was not run: ${problem}. Send the call again with a valid input (a JSON object) and a single call per id.` });
      changes.push(`the call of "${name}" was kept as ${id} with ${inputProblem ? 'an empty input' : 'its input'} because ${problem}`);
    }
    content.push(problem || name !== use.name ? { ...use, id, name, input } : use);
  }
  // A request that ends with this message (the continuation after pause_turn) is refused when
  // its last text ends in whitespace: trim it here, once.
  const last = content[content.length - 1];
  let trimmed = false;
  if (last?.type === 'text' && /\s$/.test((last as TextBlock).text)) {
    content[content.length - 1] = { ...(last as TextBlock), text: (last as TextBlock).text.trimEnd() };
    trimmed = true;
  }
  if (blank > 0) changes.unshift(`${blank} empty or whitespace-only text block${blank === 1 ? ' was' : 's were'} dropped`);
  return { message: changes.length === 0 && !trimmed ? message : { role: 'assistant', content }, refused, changes };
}

/** Past this many calls in one message, {@link isKeptAsItIs} leaves the message to the general path. */
const MAX_CALLS_CHECKED_IN_PLACE = 32;

/**
 * Whether {@link normalizeAssistantMessage} would keep `message` as it is (the usual answer), told
 * without copying anything: no blank text, every call with a valid id used nowhere before (in the
 * message or in `takenIds`, when it is a Set), a name and an input within bounds, and no
 * whitespace after the last text.
 */
function isKeptAsItIs(message: AssistantMessage, takenIds: Iterable<string> | undefined): boolean {
  const content: unknown = message.content;
  if (!Array.isArray(content) || (takenIds !== undefined && !(takenIds instanceof Set))) return false;
  let calls = 0;
  for (let index = 0; index < content.length; index++) {
    const block = content[index] as ContentBlock;
    if (isBlankText(block)) return false;
    if (block.type !== 'tool_use') continue;
    const { id, name, input } = block as ToolUseBlock;
    if (typeof name !== 'string' || name === '' || typeof id !== 'string' || !TOOL_USE_ID.test(id) || takenIds?.has(id) === true) return false;
    if (++calls > MAX_CALLS_CHECKED_IN_PLACE) return false;
    for (let earlier = 0; earlier < index; earlier++) if ((content[earlier] as ToolUseBlock).type === 'tool_use' && (content[earlier] as ToolUseBlock).id === id) return false;
    if (typeof input !== 'object' || input === null || Array.isArray(input) || jsonBoundsProblem(input, TOOL_INPUT_BOUNDS) !== undefined) return false;
  }
  const last = content[content.length - 1] as ContentBlock | undefined;
  return !(last?.type === 'text' && /\s$/.test((last as TextBlock).text));
}

function freshId(base: string, taken: { has(id: string): boolean }): string {
  const stem = base.replace(/[^a-zA-Z0-9_-]/g, '').slice(0, 60) || 'toolu';
  for (let n = 2; ; n++) {
    const candidate = `${stem}_dup${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
