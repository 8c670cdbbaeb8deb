import type { ContentBlock, Message, TextBlock, ToolResultBlock, ToolUseBlock } from '../model/messages.js';
import { isBlankText, normalizeAssistantMessage } from './normalize-assistant-message.js';
import { isEmptyErrorResult, REFUSED_WITHOUT_REASON } from './empty-error-result.js';
import { repairAssistantBlocks } from './repair-assistant-blocks.js';
import { resultWithoutBlankText } from './result-without-blank-text.js';

/** What {@link repairHistory} returns. */
export interface RepairedHistory {
  messages: Message[];
  /** What was changed, one sentence each; empty when the history was already valid. */
  changes: string[];
}

const LOST_BEGINNING = '(The beginning of this conversation was lost; it continues from here.)';
const LOST_RESULT = 'The result of this tool call was lost (the stored transcript was damaged). Do not assume it ran or did not run; check before repeating it.';

function isBlock(block: unknown): block is ContentBlock {
  return typeof block === 'object' && block !== null && typeof (block as { type?: unknown }).type === 'string';
}

/** A message's blocks: its own array when every element is a block (nothing copied), else those that are. */
function blocksOf(message: Message): ContentBlock[] {
  if (typeof message.content === 'string') return message.content.trim() === '' ? [] : [{ type: 'text', text: message.content } as TextBlock];
  const content: unknown = message.content;
  if (!Array.isArray(content)) return [];
  return content.every(isBlock) ? content : content.filter(isBlock);
}

/**
 * A message's own fields besides `role` and `content` (with a value: JSON leaves out the others),
 * or undefined when it has none: the API refuses any (`messages.0.name: Extra inputs are not
 * permitted`), so a hand-edited or foreign transcript carrying one would fail every request.
 */
function extraFieldsOf(message: Message): string[] | undefined {
  let extra: string[] | undefined;
  for (const key in message) {
    if (key === 'role' || key === 'content' || !Object.hasOwn(message, key) || (message as unknown as Record<string, unknown>)[key] === undefined) continue;
    (extra ??= []).push(key);
  }
  return extra;
}

/** The sentence {@link repairHistory} reports for the extra fields of message `index` (0-based). */
function extraFieldsDropped(index: number, extra: readonly string[]): string {
  const names = extra.slice(0, 5).map((key) => JSON.stringify(key.slice(0, 40)));
  const more = extra.length > 5 ? ` and ${extra.length - 5} more` : '';
  return `message ${index + 1}: its field${extra.length === 1 ? '' : 's'} ${names.join(', ')}${more} ${extra.length === 1 ? 'was' : 'were'} dropped (a message has only a role and content; the API refuses any other field)`;
}

/** Whether the user branch of {@link repairHistory} would change `block` (blank text, blank text in a result, an empty error result). */
function userBlockNeedsRepair(block: ContentBlock): boolean {
  return isBlankText(block) || resultWithoutBlankText(block) !== block || isEmptyErrorResult(block);
}

/**
 * Turns a history that may break the API's rules (a transcript written before a fix, or damaged
 * in the middle) into one the API accepts, saying what changed: messages that are not messages
 * and blank text go, a model's message is normalized like a new one (duplicate ids, oversized
 * inputs), adjacent messages of one role are joined, a history that starts with the model gets a
 * short first user message, every `tool_use` is answered in the next message — in order, first —
 * with the stored result or an error result saying it was lost, results that answer no call
 * go, an error result with no content gets a sentence, blank text in a result goes, a field of a
 * message other than its role and content goes (the API refuses any), a thinking
 * block without its signature goes, and so does a server tool's call without its result (or a
 * result without its call) in a model's message (see `repairAssistantBlocks`). A final assistant message's calls are left for the open batch. Pure; never throws.
 */
export function repairHistory(input: readonly unknown[]): RepairedHistory {
  const changes: string[] = [];
  let messages: Message[] = [];
  // An id used by an earlier model message is taken: the API wants ids unique in a request.
  const usedIds = new Set<string>();
  for (const [index, raw] of input.entries()) {
    const message = raw as Message;
    if (typeof raw !== 'object' || raw === null || (message.role !== 'user' && message.role !== 'assistant')) {
      changes.push(`message ${index + 1} was dropped: it is not a user or assistant message`);
      continue;
    }
    const blocks = blocksOf(message);
    const extra = extraFieldsOf(message);
    if (extra) changes.push(extraFieldsDropped(index, extra));
    if (message.role === 'assistant') {
      const repaired = repairAssistantBlocks(blocks);
      for (const change of repaired.changes) changes.push(`message ${index + 1}: ${change}`);
      const normalized = normalizeAssistantMessage({ role: 'assistant', content: repaired.content }, { takenIds: usedIds });
      for (const block of normalized.message.content) if (block.type === 'tool_use') usedIds.add((block as ToolUseBlock).id);
      for (const change of normalized.changes) changes.push(`message ${index + 1}: ${change}`);
      if (normalized.message.content.length > 0) messages.push(normalized.message);
      else changes.push(`message ${index + 1} was dropped: it had no content`);
      continue;
    }
    // The usual message needs nothing: kept as it is, with nothing copied (a loaded history of
    // thousands of messages is repaired on every resume).
    if (!extra && (typeof message.content === 'string' ? blocks.length > 0 : blocks === message.content && blocks.length > 0 && !blocks.some(userBlockNeedsRepair))) {
      messages.push(message);
      continue;
    }
    let kept = blocks.filter((block) => !isBlankText(block));
    if (kept.length < blocks.length) changes.push(`message ${index + 1}: ${blocks.length - kept.length} blank text block(s) were dropped`);
    const outputs = kept.map(resultWithoutBlankText);
    if (outputs.some((block, position) => block !== kept[position])) {
      changes.push(`message ${index + 1}: blank text in tool results was dropped (a result left without output says so)`);
      kept = outputs;
    }
    const said = kept.map((block) => (isEmptyErrorResult(block) ? { ...block, content: REFUSED_WITHOUT_REASON } : block));
    if (said.some((block, position) => block !== kept[position])) {
      changes.push(`message ${index + 1}: an error result with no content (refused by the API) was given one`);
      kept = said;
    }
    if (kept.length > 0) messages.push(typeof message.content === 'string' && kept.length === blocks.length && !extra ? message : { role: 'user', content: kept });
    else changes.push(`message ${index + 1} was dropped: it had no content`);
  }
  // Pairing can empty a message, which can make two of one role adjacent: repeat until stable.
  for (let pass = 0; pass < 4; pass++) {
    const before = changes.length;
    messages = joinAdjacent(messages, changes);
    messages = pairResults(messages, changes);
    if (changes.length === before) break;
  }
  messages = joinAdjacent(messages, changes);
  if (messages[0]?.role === 'assistant') {
    messages.unshift({ role: 'user', content: [{ type: 'text', text: LOST_BEGINNING }] });
    changes.push('the history started with the model, so a short first user message was added');
  }
  return { messages, changes };
}

function joinAdjacent(messages: Message[], changes: string[]): Message[] {
  const joined: Message[] = [];
  for (const message of messages) {
    const last = joined[joined.length - 1];
    if (last?.role === 'assistant' && message.role === 'assistant') {
      // Joined calls may reuse an id: the second one gets a fresh id and an error answer.
      const normalized = normalizeAssistantMessage({ role: 'assistant', content: [...last.content, ...message.content] });
      changes.push(...normalized.changes.map((change) => `two model messages in a row were joined, and ${change}`));
      joined[joined.length - 1] = normalized.message;
    } else if (last?.role === message.role) {
      joined[joined.length - 1] = { role: message.role, content: [...blocksOf(last), ...blocksOf(message)] } as Message;
      changes.push('two user messages in a row were joined');
    } else {
      joined.push(message);
    }
  }
  return joined;
}

function pairResults(messages: Message[], changes: string[]): Message[] {
  const repaired: Message[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    const previous = repaired[repaired.length - 1];
    if (message.role === 'assistant') {
      repaired.push(message);
      continue;
    }
    if (answersInOrder(previous, message)) {
      repaired.push(message);
      continue;
    }
    const uses = previous?.role === 'assistant' ? previous.content.filter((block): block is ToolUseBlock => block.type === 'tool_use') : [];
    const blocks = blocksOf(message);
    const results = new Map<string, ToolResultBlock>();
    const rest: ContentBlock[] = [];
    let orphans = 0;
    const wanted = new Set(uses.map((use) => use.id));
    for (const block of blocks) {
      if (block.type !== 'tool_result') {
        rest.push(block);
        continue;
      }
      const id = (block as ToolResultBlock).tool_use_id;
      if (wanted.has(id) && !results.has(id)) results.set(id, block as ToolResultBlock);
      else orphans++;
    }
    if (orphans > 0) changes.push(`${orphans} tool result(s) that answered no call of the message before were dropped`);
    const answers = uses.map((use) => {
      const found = results.get(use.id);
      if (found) return found;
      changes.push(`the call ${use.id} (${use.name}) had no stored result, so it was answered with an error`);
      return { type: 'tool_result', tool_use_id: use.id, content: LOST_RESULT, is_error: true } as ToolResultBlock;
    });
    const inOrder = uses.length > 0 && blocks.slice(0, uses.length).every((block, position) => block === answers[position]);
    if (uses.length > 0 && !inOrder && results.size === uses.length && orphans === 0) changes.push('tool results were put first and in the order of their calls');
    const content = [...answers, ...rest];
    if (content.length > 0) repaired.push({ role: 'user', content });
    else changes.push('a message left without content was dropped');
  }
  // A history that ends with calls (the open batch) keeps them unanswered; the batch answers them.
  return repaired;
}

/**
 * Whether {@link pairResults} keeps user message `message` as it is: its blocks (an array of
 * blocks, not empty) answer each call of `previous` (the message before it, when the model's) in
 * order and first, once each, and no other block is a result. Allocates nothing.
 */
function answersInOrder(previous: Message | undefined, message: Message): boolean {
  const blocks: unknown = message.content;
  if (!Array.isArray(blocks) || blocks.length === 0 || !blocks.every(isBlock)) return false;
  let answered = 0;
  if (previous?.role === 'assistant') {
    for (const block of previous.content) {
      if (block.type !== 'tool_use') continue;
      const answer = blocks[answered];
      const id = (block as ToolUseBlock).id;
      // (The calls' ids are unique: every model message was normalized against the ones before.)
      if (answer?.type !== 'tool_result' || (answer as ToolResultBlock).tool_use_id !== id) return false;
      answered++;
    }
  }
  for (let index = answered; index < blocks.length; index++) if (blocks[index]!.type === 'tool_result') return false;
  return true;
}
