import type { ToolSearchSupport } from '../model.js';

/**
 * Claude models known to run the tool search server tool: Opus and Sonnet from 4.5 on, and any
 * later generation. Older models (Claude 3.x, Opus/Sonnet 4.0 and 4.1, the Haiku models) get the
 * client-side search instead.
 */
const SERVER_SEARCH = /^claude-(?:(?:opus|sonnet)-4-[5-9](?:-|$)|(?:opus|sonnet|haiku)-(?:[5-9]|[1-9]\d)(?:-|$)|mythos)/;

/**
 * How an Anthropic model reaches deferred tools, judged from its id: `'server'` for models that
 * run the tool search server tool, `'none'` for the others (the agent then offers its client-side
 * `ToolSearch`). `anthropicModel({ toolSearch })` overrides it.
 * @param modelId - e.g. `claude-sonnet-4-5-20250929`.
 */
export function anthropicToolSearchSupport(modelId: string): ToolSearchSupport {
  return SERVER_SEARCH.test(modelId) ? 'server' : 'none';
}
