import type { ContentBlock } from '../model/messages.js';

/** What {@link repairAssistantBlocks} returns. */
export interface RepairedAssistantBlocks {
  /** The blocks the API accepts in any place of a later request (the same array when nothing changed). */
  content: ContentBlock[];
  /** What was changed, in sentences (empty when nothing was). */
  changes: string[];
}

/** A server tool's call (a server tool, or an MCP connector tool) that the API answers in the same message. */
const SERVER_CALLS: ReadonlySet<string> = new Set(['server_tool_use', 'mcp_tool_use']);

/** Whether a block is a server tool's result (`web_search_tool_result`, `mcp_tool_result`, …). */
function isServerResult(block: ContentBlock): boolean {
  return block.type !== 'tool_result' && block.type.endsWith('_tool_result');
}

/** Whether {@link repairAssistantBlocks} looks at `block`: thinking, a server tool's call or result. */
function isLookedAt(block: ContentBlock): boolean {
  return block.type === 'thinking' || block.type === 'redacted_thinking' || SERVER_CALLS.has(block.type) || isServerResult(block);
}

/**
 * Makes a stored model message safe to send again, for what a new answer never holds but a
 * transcript written by a crashed or older process may: a thinking block without its signature
 * (or redacted thinking without its data) goes, as the API refuses it ("signature: Field
 * required"); a server tool's call without its result in the message goes, and so does a server
 * tool's result that answers no call before it (the API refuses either once a message follows).
 * Only for a loaded history: a live answer stopped at `pause_turn` ends on a call the API
 * answers when the turn continues. Pure.
 */
export function repairAssistantBlocks(content: ContentBlock[]): RepairedAssistantBlocks {
  // The usual message holds none of the blocks looked at: nothing to index or copy.
  if (!content.some(isLookedAt)) return { content, changes: [] };
  const called = new Set<string>();
  const answered = new Set<string>();
  for (const block of content) {
    const record = block as { id?: unknown; tool_use_id?: unknown };
    if (SERVER_CALLS.has(block.type) && typeof record.id === 'string') called.add(record.id);
    else if (isServerResult(block) && typeof record.tool_use_id === 'string' && called.has(record.tool_use_id)) answered.add(record.tool_use_id);
  }
  let unsigned = 0;
  let unanswered = 0;
  let orphans = 0;
  const seen = new Set<string>();
  const kept = content.filter((block) => {
    const record = block as { id?: unknown; tool_use_id?: unknown; signature?: unknown; data?: unknown };
    if ((block.type === 'thinking' && typeof record.signature !== 'string') || (block.type === 'redacted_thinking' && typeof record.data !== 'string')) {
      unsigned++;
      return false;
    }
    if (SERVER_CALLS.has(block.type)) {
      if (typeof record.id === 'string' && answered.has(record.id)) {
        seen.add(record.id);
        return true;
      }
      unanswered++;
      return false;
    }
    // A result answers a call before it in the message, once.
    if (isServerResult(block) && !(typeof record.tool_use_id === 'string' && seen.delete(record.tool_use_id))) {
      orphans++;
      return false;
    }
    return true;
  });
  const changes: string[] = [];
  if (unsigned > 0) changes.push(`${unsigned} thinking block(s) without a signature were dropped`);
  if (unanswered > 0) changes.push(`${unanswered} server tool call(s) without their result were dropped`);
  if (orphans > 0) changes.push(`${orphans} server tool result(s) that answered no call before them were dropped`);
  return { content: changes.length === 0 ? content : kept, changes };
}
