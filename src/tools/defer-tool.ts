import type { Tool } from './types.js';

/**
 * The same tool, deferred: its definition reaches the model only when tool search finds it (see
 * `DefineToolOptions.deferLoading`). For tools made elsewhere, e.g. some of `workspaceTools()`.
 * @example
 * const tools = [...workspaceTools({ cwd, tools: ['Read', 'Grep'] }), ...workspaceTools({ cwd, tools: ['Bash'] }).map(deferTool)];
 */
export function deferTool<Input>(tool: Tool<Input>): Tool<Input> {
  return { ...tool, deferLoading: true };
}
