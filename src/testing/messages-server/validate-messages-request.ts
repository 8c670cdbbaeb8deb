import type { ContentBlock, Message } from '../../model/messages.js';

/**
 * Checks the conversation rules the real Messages API enforces and returns the API's own
 * `invalid_request_error` message for the first violation, or undefined when the request is valid.
 * Wording of the tool_use/tool_result messages is copied from real 400 bodies.
 * @param messages - the request's `messages`.
 */
export function validateMessagesRequest(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return 'messages: Field required';
  if (messages.length === 0) return 'messages: at least one message is required';
  const list = messages as Message[];
  for (let index = 0; index < list.length; index++) {
    const message = list[index]!;
    const previous = list[index - 1];
    if (index === 0 && message.role !== 'user') return 'messages: first message must use the "user" role';
    if (previous && previous.role === message.role) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${message.role}" roles in a row`;
    }
    const isFinalAssistant = index === list.length - 1 && message.role === 'assistant';
    if (isEmpty(message.content) && !isFinalAssistant) {
      return `messages.${index}: all messages must have non-empty content except for the optional final assistant message`;
    }
    const problem =
      message.role === 'user'
        ? orphanToolResult(message, previous, index)
        : unansweredToolUse(message, list[index + 1], index);
    if (problem) return problem;
  }
  return undefined;
}

function isEmpty(content: Message['content']): boolean {
  return typeof content === 'string' ? content === '' : !Array.isArray(content) || content.length === 0;
}

function blocksOf(message: Message | undefined): ContentBlock[] {
  return message && Array.isArray(message.content) ? message.content : [];
}

function toolUseIds(message: Message | undefined): string[] {
  return blocksOf(message)
    .filter((block) => block.type === 'tool_use')
    .map((block) => String((block as { id?: unknown }).id));
}

function unansweredToolUse(message: Message, next: Message | undefined, index: number): string | undefined {
  const ids = toolUseIds(message);
  if (ids.length === 0) return undefined;
  const answered = new Set(
    blocksOf(next?.role === 'user' ? next : undefined)
      .filter((block) => block.type === 'tool_result')
      .map((block) => String((block as { tool_use_id?: unknown }).tool_use_id)),
  );
  const missing = ids.filter((id) => !answered.has(id));
  if (missing.length === 0) return undefined;
  return `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
}

function orphanToolResult(message: Message, previous: Message | undefined, index: number): string | undefined {
  const known = new Set(toolUseIds(previous?.role === 'assistant' ? previous : undefined));
  const blocks = blocksOf(message);
  for (let position = 0; position < blocks.length; position++) {
    const block = blocks[position]!;
    if (block.type !== 'tool_result') continue;
    const id = String((block as { tool_use_id?: unknown }).tool_use_id);
    if (!known.has(id)) {
      return `messages.${index}.content.${position}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
  }
  return undefined;
}
