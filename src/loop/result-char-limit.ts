import type { AgentCore } from '../runtime/agent-core.js';

/**
 * How many characters of text a tool result may hold (`maxToolResultChars`, its output and an
 * error alike): no limit when long results are spilled (kept whole, previewed).
 */
export function resultCharLimit(core: AgentCore): number {
  return core.context.settings.spill ? Number.MAX_SAFE_INTEGER : (core.options.maxToolResultChars ?? 100_000);
}
