import type { AgentCore } from '../runtime/agent-core.js';

/**
 * The tools whose calls ask the user a question (`requiresUserInteraction`, e.g.
 * `AskUserQuestion`): their answers are the user's words, not stale output a call gets again, so
 * no clearing stubs them.
 */
export function questionTools(core: AgentCore): string[] {
  const names: string[] = [];
  for (const tool of core.tools.values()) if (tool.requiresUserInteraction === true) names.push(tool.name);
  return names;
}
