import type { Tool } from '../../tools/types.js';
import { readToolOutputTool } from './read-tool-output-tool.js';
import type { SpillStore } from './spill-store.js';

/** The tools {@link sessionReadToolOutputTool} made: a host tool may be named `ReadToolOutput` too. */
const made = new WeakSet<object>();

/** The most characters a page of the agent's own `ReadToolOutput` has. */
const MAX_PAGE_CHARS = 20_000;

/**
 * The `ReadToolOutput` tool `createAgent` adds with `context.spill`: it pages the outputs that
 * agent kept aside in its own session state, so it is never handed to a subagent (which gets one
 * of its own, over its own state). Its pages and search listings are at most `maxChars` long (the
 * spill limit), so what it reads back fits the context as the host sized it; its answers are
 * never spilled themselves (see `AgentCore.spillResult`).
 * @param store - the agent's spill store.
 * @param maxChars - the spill limit (`context.spill.maxChars`).
 */
export function sessionReadToolOutputTool(store: SpillStore, maxChars: number = MAX_PAGE_CHARS): Tool {
  const tool = readToolOutputTool({ store, pageChars: Math.min(MAX_PAGE_CHARS, maxChars) });
  made.add(tool);
  return tool;
}

/** Whether `tool` is an agent's own {@link sessionReadToolOutputTool}, not a host tool of that name. */
export function isSessionReadToolOutput(tool: unknown): boolean {
  return typeof tool === 'object' && tool !== null && made.has(tool);
}
