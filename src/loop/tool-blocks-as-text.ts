import type { HistoryScan } from '../runtime/history-scan.js';
import type { ContentBlock, Message, ToolResultBlock, ToolUseBlock } from '../model/messages.js';

/**
 * Where an agent keeps how far its history is known to hold no tool block, or how much of it was
 * already written out as text, between requests of an agent without tools: each turn then looks
 * at the new messages only (the whole history was searched, and once it held a tool block written
 * out, every turn: a cost that grew with the session).
 */
export type ToolBlockScanSlot = Pick<HistoryScan, 'scanned' | 'clean' | 'cleanLast' | 'written'>;

/**
 * How many first messages of `messages` the slot has settled (see `HistoryScan.clean`): when it
 * saw this array last and the array still ends that part with the message it saw (not cut back,
 * not changed there); else 0.
 */
function knownClean(messages: readonly Message[], slot: ToolBlockScanSlot | undefined): number {
  if (slot === undefined || slot.scanned !== messages || slot.clean === undefined || slot.clean > messages.length - 1) return 0;
  return slot.clean === 0 || messages[slot.clean - 1] === slot.cleanLast ? slot.clean : 0;
}

/** Whether a message holds a block the API accepts only in a request that defines tools. */
function holdsToolBlocks(message: Message): boolean {
  if (!Array.isArray(message.content)) return false;
  for (const block of message.content) if (block.type === 'tool_use' || block.type === 'tool_result') return true;
  return false;
}

function callNote(block: ToolUseBlock): ContentBlock {
  let input: string;
  try {
    input = JSON.stringify(block.input) ?? 'no input';
  } catch {
    input = 'an input that could not be written out';
  }
  return { type: 'text', text: `(Called the tool "${block.name}" (call ${block.id}) with ${input}. This agent has no tools now.)` };
}

function resultBlocks(block: ToolResultBlock, names: ReadonlyMap<string, string>, unsettled: ReadonlyMap<string, string> | undefined): ContentBlock[] {
  const name = unsettled?.get(block.tool_use_id) ?? names.get(block.tool_use_id);
  const head = `(The result${block.is_error === true ? ', an error,' : ''} of the call ${block.tool_use_id}${name === undefined ? '' : ` of "${name}"`}:`;
  if (typeof block.content === 'string') return [{ type: 'text', text: `${head} ${block.content === '' ? '(empty)' : block.content})` }];
  const blocks: ContentBlock[] = [{ type: 'text', text: head }];
  for (const part of block.content) {
    if (part.type === 'text') {
      if (part.text.trim() !== '') blocks.push({ type: 'text', text: part.text });
    } else if (part.type === 'tool_reference') {
      blocks.push({ type: 'text', text: `(the tool "${part.tool_name}")` });
    } else {
      blocks.push(part);
    }
  }
  blocks.push({ type: 'text', text: ')' });
  return blocks;
}

/**
 * The history as a request that defines no tools may carry it: each `tool_use` block becomes a
 * text note naming the tool and its input, and each `tool_result` block its content after a note
 * naming the call (images and documents kept). The Messages API refuses every request whose
 * history holds such blocks but that defines no tools, so a session with tool calls continued by
 * an agent that has none (resumed, forked, or from a snapshot) could not go on. Only what is sent
 * changes: the session keeps its blocks. The same history always gives the same text (the prompt
 * cache still applies). Returns `messages` itself when it holds no such block. With a slot, the
 * array returned is the slot's: the next request with that slot changes it in place (as the
 * history itself changes after a request), writing out only the messages after its settled part.
 */
export function toolBlocksAsText(messages: readonly Message[], slot?: ToolBlockScanSlot): readonly Message[] {
  const known = knownClean(messages, slot);
  // The last message may still be replaced (a message of the same role joins it): never settled.
  const settled = Math.max(0, messages.length - 1);
  // Written out before: its settled part is kept, the rest written out again in place.
  const written = known > 0 ? slot?.written : undefined;
  let sent: Message[];
  let names: Map<string, string>;
  let from: number;
  if (written !== undefined) {
    ({ sent, names } = written);
    sent.length = known;
    from = known;
  } else {
    let first = -1;
    for (let index = known; index < messages.length; index++) {
      if (holdsToolBlocks(messages[index]!)) {
        first = index;
        break;
      }
    }
    if (first === -1) {
      if (slot !== undefined) remember(slot, messages, settled, undefined);
      return messages;
    }
    sent = messages.slice(0, first);
    names = new Map();
    from = first;
  }
  // The calls of the unsettled last message are named apart: it may be replaced before the next request.
  let unsettled: Map<string, string> | undefined;
  for (let index = from; index < messages.length; index++) {
    const message = messages[index]!;
    if (!holdsToolBlocks(message)) {
      sent.push(message);
      continue;
    }
    if (index >= settled) unsettled = new Map();
    const content: ContentBlock[] = [];
    for (const block of message.content as ContentBlock[]) {
      if (block.type === 'tool_use') {
        const call = block as ToolUseBlock;
        (unsettled ?? names).set(call.id, call.name);
        content.push(callNote(call));
      } else if (block.type === 'tool_result') {
        content.push(...resultBlocks(block as ToolResultBlock, names, unsettled));
      } else {
        content.push(block);
      }
    }
    sent.push({ ...message, content } as Message);
  }
  if (slot !== undefined) remember(slot, messages, settled, written ?? { sent, names });
  return sent;
}

/** Keeps in the slot that the first `settled` messages of `messages` are settled, as `written` writes them out (undefined: they hold no tool block). */
function remember(slot: ToolBlockScanSlot, messages: readonly Message[], settled: number, written: HistoryScan['written']): void {
  slot.scanned = messages;
  slot.clean = settled;
  slot.cleanLast = settled > 0 ? messages[settled - 1] : undefined;
  slot.written = written;
}
