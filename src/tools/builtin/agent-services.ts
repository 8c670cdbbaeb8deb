import type { PermissionMode, PermissionUpdate } from '../../types/permission.js';
import type { Todo } from '../../types/todo.js';

/**
 * What the built-in tools may do to the agent that runs them — a narrow interface instead of
 * the agent itself: read the mode and the plan, save a plan, set the todo list, change the mode,
 * apply permission updates.
 */
export interface AgentServices {
  /** The current permission mode. */
  readonly mode: PermissionMode;
  /** Whether the agent can never leave plan mode (a subagent whose type's `permissionMode` is `plan`). */
  readonly alwaysPlans: boolean;
  /** The approved plan, once saved. */
  readonly plan: { name: string; text: string } | undefined;
  /** Whether the agent has a tool of this name (to word replies). */
  hasTool(name: string): boolean;
  /**
   * Writes an approved plan to the plan store and keeps it in the session (and announces it:
   * `plan-approved`). `details.alongside` runs right after, synchronously: what it changes is
   * recorded in the same append as the plan, so a crash keeps all of it or none.
   */
  savePlan(text: string, toolUseId?: string, details?: { edited?: boolean; clearContext?: boolean; alongside?: (name: string) => void; signal?: AbortSignal }): Promise<{ name: string; text: string }>;
  /**
   * Asks for the execution to start in a fresh context: once the current batch of calls is
   * answered, the history is replaced by one user message carrying the plan (and the todos).
   */
  requestFreshContext(plan: { text: string; name?: string }): void;
  /** Replaces the todo list and announces it. */
  setTodos(todos: Todo[]): void;
  /** Changes the permission mode (the model is told in the next user message). */
  setMode(mode: PermissionMode, reason: string): void;
  /** The mode to return to when a plan is approved without an explicit target. */
  modeAfterPlan(): PermissionMode;
  /** Applies permission updates to the session. */
  applyPermissionUpdates(updates: readonly PermissionUpdate[] | undefined): void;
}
