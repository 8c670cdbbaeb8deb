import type { NormalizedAssistantMessage } from '../history/normalize-assistant-message.js';
import type { ContentBlock } from '../model/messages.js';

/**
 * A model's answer to a request that defined no tools, kept without its `tool_use` blocks: each is
 * replaced by a text note saying it was not run. The Messages API refuses every later request that
 * holds a `tool_use` or `tool_result` block but defines no tools, so an answer kept with a call (a
 * model that calls a tool it was never given) would leave the session unable to go on. Nothing is
 * refused then, since no call is left to answer.
 */
export function callsWithoutTools(normalized: NormalizedAssistantMessage): NormalizedAssistantMessage {
  if (!normalized.message.content.some((block) => block.type === 'tool_use')) return normalized;
  const content: ContentBlock[] = normalized.message.content.map((block) =>
    block.type === 'tool_use' ? { type: 'text', text: `(A call of the tool "${block.name}" was not run: this agent has no tools.)` } : block,
  );
  return { message: { ...normalized.message, content }, refused: [], changes: [...normalized.changes, 'tool calls made to a request without tools were kept as notes'] };
}
