import type { RawBlock } from './content-block-problem.js';

/** One message as received. */
export interface RawMessage {
  role?: unknown;
  content?: unknown;
}

/** The blocks of a message's content (none for string content). */
export function blocksOf(message: RawMessage | undefined): RawBlock[] {
  return message && Array.isArray(message.content) ? (message.content as RawBlock[]) : [];
}

function toolUseIds(message: RawMessage | undefined): string[] {
  return blocksOf(message)
    .filter((block) => block.type === 'tool_use')
    .map((block) => String(block.id));
}

/**
 * An assistant message's `tool_use` blocks must all be answered by `tool_result` blocks in the
 * next (user) message; the real 400 names the unanswered ids, comma-separated.
 */
export function unansweredToolUse(message: RawMessage, next: RawMessage | undefined, index: number): string | undefined {
  const ids = toolUseIds(message);
  if (ids.length === 0) return undefined;
  const answered = new Set(
    blocksOf(next?.role === 'user' ? next : undefined)
      .filter((block) => block.type === 'tool_result')
      .map((block) => String(block.tool_use_id)),
  );
  const missing = ids.filter((id) => !answered.has(id));
  if (missing.length === 0) return undefined;
  return `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
}

/**
 * A user message's `tool_result` blocks: each must answer a `tool_use` of the previous assistant
 * message, once; the message must begin with as many `tool_result` blocks as that message
 * had `tool_use` blocks; and an error result (`is_error: true`) must have content.
 */
export function toolResultProblem(message: RawMessage, previous: RawMessage | undefined, index: number): string | undefined {
  return orphanOrDuplicateResult(message, previous, index) ?? resultsNotFirst(message, previous, index) ?? emptyErrorResult(message, index);
}

/** An error result must say something: the real API refuses `is_error: true` with empty content. */
function emptyErrorResult(message: RawMessage, index: number): string | undefined {
  const blocks = blocksOf(message);
  for (let position = 0; position < blocks.length; position++) {
    const block = blocks[position]!;
    if (block.type !== 'tool_result' || block.is_error !== true) continue;
    const content = block.content;
    if (content === undefined || content === '' || (Array.isArray(content) && content.length === 0)) {
      return `messages.${index}.content.${position}.tool_result: content cannot be empty if \`is_error\` is true`;
    }
  }
  return undefined;
}

function orphanOrDuplicateResult(message: RawMessage, previous: RawMessage | undefined, index: number): string | undefined {
  const known = new Set(toolUseIds(previous?.role === 'assistant' ? previous : undefined));
  const seen = new Set<string>();
  const blocks = blocksOf(message);
  for (let position = 0; position < blocks.length; position++) {
    if (blocks[position]!.type !== 'tool_result') continue;
    const id = String(blocks[position]!.tool_use_id);
    if (!known.has(id)) {
      return `messages.${index}.content.${position}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
    if (seen.has(id)) {
      // Wording not confirmed from a recorded real body.
      return `messages.${index}.content.${position}: each tool_use must have a single result. Found multiple \`tool_result\` blocks with id: ${id}`;
    }
    seen.add(id);
  }
  return undefined;
}

function resultsNotFirst(message: RawMessage, previous: RawMessage | undefined, index: number): string | undefined {
  const expected = toolUseIds(previous?.role === 'assistant' ? previous : undefined).length;
  if (expected === 0) return undefined;
  const leading = blocksOf(message).slice(0, expected);
  if (leading.length === expected && leading.every((block) => block.type === 'tool_result')) return undefined;
  return `messages.${index}: Did not find ${expected} \`tool_result\` block(s) at the beginning of this message. Messages following \`tool_use\` blocks must begin with a matching number of \`tool_result\` blocks.`;
}
