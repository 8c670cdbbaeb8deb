/**
 * The names a plan-approval call goes by in a transcript: `ExitPlanMode` (this library's tool,
 * and Claude Code's) and `exit_plan_mode` (Claude Code 1.0.x).
 */
export const EXIT_PLAN_MODE_TOOLS: ReadonlySet<string> = new Set(['ExitPlanMode', 'exit_plan_mode']);
