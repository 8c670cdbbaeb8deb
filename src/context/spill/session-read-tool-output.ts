import type { Tool } from '../../tools/types.js';
import { readToolOutputTool } from './read-tool-output-tool.js';
import type { SpillStore } from './spill-store.js';

/** The tools {@link sessionReadToolOutputTool} made: a host tool may be named `ReadToolOutput` too. */
const made = new WeakSet<object>();

/**
 * The `ReadToolOutput` tool `createAgent` adds with `context.spill`: it pages the outputs that
 * agent kept aside in its own session state, so it is never handed to a subagent (which gets one
 * of its own, over its own state).
 * @param store - the agent's spill store.
 */
export function sessionReadToolOutputTool(store: SpillStore): Tool {
  const tool = readToolOutputTool({ store });
  made.add(tool);
  return tool;
}

/** Whether `tool` is an agent's own {@link sessionReadToolOutputTool}, not a host tool of that name. */
export function isSessionReadToolOutput(tool: unknown): boolean {
  return typeof tool === 'object' && tool !== null && made.has(tool);
}
