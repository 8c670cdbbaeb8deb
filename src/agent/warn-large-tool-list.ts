import { cachedToolDefinitionTokens } from '../context/accounting/estimate-tokens.js';
import type { ToolDefinition } from '../model/model.js';
import type { AgentCore } from '../runtime/agent-core.js';

/** Past this share of the context window, the tool definitions sent with every request draw a warning. */
export const LARGE_TOOL_LIST_SHARE = 0.1;

/**
 * Emits a `warning` (source `tools`) when the definitions of the tools sent in full with every
 * request (deferred ones left out) take more than {@link LARGE_TOOL_LIST_SHARE} of the model's
 * context window: each request pays for them, and the history gets that much less room. Thousands
 * of MCP tools do that quietly; deferring them (`deferLoading`) or fewer servers is the cure.
 */
export function warnLargeToolList(core: AgentCore): void {
  // Each definition's estimate is shared by every agent (definitions are shared objects), so a
  // new agent per request does not serialise its tool schemas again just to find them small.
  let count = 0;
  let tokens = 0;
  for (const tool of core.toolDefinitions) {
    if (tool.defer_loading === true) continue;
    count++;
    tokens += cachedToolDefinitionTokens(tool as ToolDefinition);
  }
  if (count === 0) return;
  const window = core.context.window;
  if (tokens <= window * LARGE_TOOL_LIST_SHARE) return;
  core.emit({
    type: 'warning',
    source: 'tools',
    message:
      `The ${count} tool definitions sent in full with every request take about ${tokens} tokens, ${Math.round((tokens / window) * 100)}% of the model's ${window}-token context window: ` +
      'every request pays for them and the conversation has that much less room. Defer the tools the model rarely needs (an MCP server\'s `deferLoading: true`, or `deferTool(tool)`), so a tool search finds them when needed.',
  });
}
