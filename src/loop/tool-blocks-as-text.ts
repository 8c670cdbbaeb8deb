import type { HistoryScan } from '../runtime/history-scan.js';
import type { ContentBlock, Message, ToolResultBlock, ToolUseBlock } from '../model/messages.js';

/**
 * Where an agent keeps how far its history is known to hold no tool block, between requests of
 * an agent without tools: each turn then looks at the new messages only (the whole history was
 * searched every turn, a cost that grew with the session).
 */
export type ToolBlockScanSlot = Pick<HistoryScan, 'scanned' | 'clean' | 'cleanLast'>;

/**
 * Where a search of `messages` may start: past the messages the slot knows hold no tool block,
 * when it saw this array last and the array still ends that part with the message it saw (not cut
 * back, not changed there); else 0.
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

function resultBlocks(block: ToolResultBlock, names: ReadonlyMap<string, string>): ContentBlock[] {
  const name = names.get(block.tool_use_id);
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
 * cache still applies). Returns `messages` itself when it holds no such block.
 */
export function toolBlocksAsText(messages: readonly Message[], slot?: ToolBlockScanSlot): readonly Message[] {
  const known = knownClean(messages, slot);
  let first = -1;
  for (let index = known; index < messages.length; index++) {
    if (holdsToolBlocks(messages[index]!)) {
      first = index;
      break;
    }
  }
  if (slot !== undefined) {
    // The last message may still be replaced (a message of the same role joins it): not kept as known.
    const clean = Math.max(0, (first === -1 ? messages.length : first) - 1);
    slot.scanned = messages;
    slot.clean = clean;
    slot.cleanLast = clean > 0 ? messages[clean - 1] : undefined;
  }
  if (first === -1) return messages;
  const names = new Map<string, string>();
  const sent = messages.slice(0, first);
  for (let index = first; index < messages.length; index++) {
    const message = messages[index]!;
    if (index !== first && !holdsToolBlocks(message)) {
      sent.push(message);
      continue;
    }
    const content: ContentBlock[] = [];
    for (const block of message.content as ContentBlock[]) {
      if (block.type === 'tool_use') {
        const call = block as ToolUseBlock;
        names.set(call.id, call.name);
        content.push(callNote(call));
      } else if (block.type === 'tool_result') {
        content.push(...resultBlocks(block as ToolResultBlock, names));
      } else {
        content.push(block);
      }
    }
    sent.push({ ...message, content } as Message);
  }
  return sent;
}
