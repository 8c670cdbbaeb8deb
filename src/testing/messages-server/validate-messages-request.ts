import { blankTextMessage, blockSchemaProblem, textBlockProblem } from './content-block-problem.js';
import { mediaLimitsProblem } from './media-limits-problem.js';
import { blocksOf, toolResultProblem, unansweredToolUse, type RawMessage } from './tool-result-problem.js';

/**
 * Checks the conversation rules the real Messages API enforces on `messages` and returns the
 * API's own `invalid_request_error` message for the first violation, or undefined when they are
 * valid. Like the API, per-field schema problems (a role other than user/assistant, a message
 * field other than role and content, an image
 * without `source`, a thinking block without `signature`, `cache_control` on thinking) are
 * reported before conversation rules (first message from the user, alternating roles, non-empty
 * content and text, tool_use ids that match the API's pattern and are unique in the request, tool_use/tool_result pairing, no trailing whitespace in a final assistant
 * prefill), then the media limits (100 images and documents; no image over 8000 pixels a side,
 * nor over 2000 in a request of more than 20 images). Wording is copied from real 400 bodies. Request-level rules (model, max_tokens,
 * thinking, tools, the cache_control count) are checked by `validateMessagesRequestBody`.
 * @param messages - the request's `messages`.
 */
export function validateMessagesRequest(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return 'messages: Field required';
  if (messages.length === 0) return 'messages: at least one message is required';
  const list = messages as RawMessage[];
  for (let index = 0; index < list.length; index++) {
    const problem = messageSchemaProblem(list[index], index);
    if (problem) return problem;
  }
  const idProblem = toolUseIdProblem(list);
  if (idProblem) return idProblem;
  for (let index = 0; index < list.length; index++) {
    const problem = conversationProblem(list, index);
    if (problem) return problem;
  }
  return mediaLimitsProblem(list);
}

const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;

/** Every `tool_use` id matches the API's pattern and is used once in the whole request. */
function toolUseIdProblem(list: RawMessage[]): string | undefined {
  const seen = new Set<string>();
  for (let index = 0; index < list.length; index++) {
    if (list[index]!.role !== 'assistant') continue;
    const blocks = blocksOf(list[index]!);
    for (let position = 0; position < blocks.length; position++) {
      const block = blocks[position]!;
      if (block.type !== 'tool_use' && block.type !== 'server_tool_use') continue;
      const id = block.id;
      if (typeof id !== 'string' || !TOOL_USE_ID.test(id)) {
        return `messages.${index}.content.${position}.${String(block.type)}.id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
      }
      if (seen.has(id)) return `messages.${index}.content.${position}: \`tool_use\` ids must be unique`;
      seen.add(id);
    }
  }
  return undefined;
}

function messageSchemaProblem(message: RawMessage | undefined, index: number): string | undefined {
  if (typeof message !== 'object' || message === null) return `messages.${index}: Input should be a valid dictionary`;
  if (message.role !== 'user' && message.role !== 'assistant') return `messages.${index}.role: Input should be 'user' or 'assistant'`;
  for (const key of Object.keys(message)) {
    if (key !== 'role' && key !== 'content' && (message as Record<string, unknown>)[key] !== undefined) return `messages.${index}.${key}: Extra inputs are not permitted`;
  }
  const blocks = blocksOf(message);
  for (let position = 0; position < blocks.length; position++) {
    const problem = blockSchemaProblem(blocks[position]!, { message: index, position });
    if (problem) return problem;
  }
  return undefined;
}

function conversationProblem(list: RawMessage[], index: number): string | undefined {
  const message = list[index]!;
  const previous = list[index - 1];
  const finalAssistant = index === list.length - 1 && message.role === 'assistant';
  if (index === 0 && message.role !== 'user') return 'messages: first message must use the "user" role';
  if (previous && previous.role === message.role) {
    return `messages: roles must alternate between "user" and "assistant", but found multiple "${String(message.role)}" roles in a row`;
  }
  if (isEmpty(message.content) && !finalAssistant) {
    return `messages.${index}: all messages must have non-empty content except for the optional final assistant message`;
  }
  return (
    textProblem(message, index, finalAssistant) ??
    (finalAssistant ? trailingWhitespace(message) : undefined) ??
    (message.role === 'user' ? toolResultProblem(message, previous, index) : unansweredToolUse(message, list[index + 1], index))
  );
}

function isEmpty(content: unknown): boolean {
  return typeof content === 'string' ? content === '' : !Array.isArray(content) || content.length === 0;
}

function textProblem(message: RawMessage, index: number, finalAssistant: boolean): string | undefined {
  if (typeof message.content === 'string') {
    return !finalAssistant && message.content !== '' && message.content.trim() === '' ? blankTextMessage : undefined;
  }
  const blocks = blocksOf(message);
  for (let position = 0; position < blocks.length; position++) {
    const problem = textBlockProblem(blocks[position]!, { message: index, position }, finalAssistant);
    if (problem) return problem;
  }
  return undefined;
}

/** A final assistant message is a prefill the model continues: it may not end in whitespace. */
function trailingWhitespace(message: RawMessage): string | undefined {
  const last = typeof message.content === 'string' ? message.content : lastText(blocksOf(message));
  return last !== undefined && /\s$/.test(last) ? 'messages: final assistant content cannot end with trailing whitespace' : undefined;
}

function lastText(blocks: Array<Record<string, unknown>>): string | undefined {
  const last = blocks[blocks.length - 1];
  return last?.type === 'text' && typeof last.text === 'string' ? last.text : undefined;
}
