/** What each built-in tool is for and how a host with a tool of that name gets both to fit. */
const BUILT_INS: Readonly<Record<string, { what?: string; fix: string }>> = {
  TodoWrite: { fix: 'rename yours, or leave the built-in out with `todoWrite: false`' },
  ExitPlanMode: { fix: 'rename yours, or leave the built-in out with `exitPlanMode: false`' },
  EnterPlanMode: { what: ' (`enterPlanMode: true`)', fix: 'rename yours, or leave the built-in out' },
  AskUserQuestion: { what: ' (`askUserQuestion: true`)', fix: 'rename yours, or leave the built-in out' },
  ToolSearch: { what: " that finds deferred tools for a model without the Messages API's tool search", fix: 'rename yours' },
  Skill: { what: ' that loads `skills`', fix: 'rename yours' },
  Agent: { what: ' that starts subagents (`agents`)', fix: 'rename yours' },
  TaskOutput: { what: ' that reads background subagent tasks (`agents`)', fix: 'rename yours' },
  ReadToolOutput: { what: ' that pages spilled tool results (`context.spill`)', fix: 'rename yours' },
};

/**
 * The sentence for two tools of one name: for a built-in's name, what the built-in is for and the
 * fix that exists for it (only `TodoWrite` and `ExitPlanMode` are left out by an option).
 */
export function duplicateToolNameMessage(name: string): string {
  const builtIn = Object.hasOwn(BUILT_INS, name) ? BUILT_INS[name] : undefined;
  if (!builtIn) return `Two tools are named "${name}". Tool names must be unique; rename one.`;
  return `Two tools are named "${name}": yours, and the built-in one${builtIn.what ?? ''}; ${builtIn.fix}. Tool names must be unique.`;
}
