/**
 * The names Claude Code gives its tools across versions, and the one input quirk they share.
 * Everything that knows Claude Code's tool vocabulary imports it from here.
 */
import { isRecord, type JsonRecord } from './claude-code-line-fields.js';

/** The plan-approval tool: `exit_plan_mode` in 1.0.x, `ExitPlanMode` later (recoverPlan's vocabulary). */
export { EXIT_PLAN_MODE_TOOLS } from '../../plan/exit-plan-mode-tools.js';

/** The subagent tool: `Task` up to 2.1.x, `Agent` in later versions. */
export const SUBAGENT_TOOLS: ReadonlySet<string> = new Set(['Task', 'Agent']);

/** The todo list tool of Claude Code 1.x and 2.0 (the whole list on every call). */
export const TODO_WRITE = 'TodoWrite';

/** The task tools that replace `TodoWrite` from 2.1.x on (one task per call). */
export const TASK_CREATE = 'TaskCreate';
export const TASK_UPDATE = 'TaskUpdate';
export const TASK_LIST = 'TaskList';
export const TASK_GET = 'TaskGet';

/** Every tool whose calls change the todo list. */
export const TODO_TOOLS: ReadonlySet<string> = new Set([TODO_WRITE, TASK_CREATE, TASK_UPDATE, TASK_LIST, TASK_GET]);

/**
 * A tool input as an object: the object itself, or — as some sessions record it — a JSON string
 * holding one. Anything else is undefined.
 */
export function toolInputObject(input: unknown): JsonRecord | undefined {
  if (isRecord(input)) return input;
  if (typeof input !== 'string' || !input.trimStart().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(input);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
