import { validateWithSchema } from '../plan/value-schema.js';
import { TodoListSchema } from './todo-schema.js';
import type { Todo } from '../types/todo.js';

/** The result of {@link validateTodos}. */
export type TodoValidation = { ok: true; todos: Todo[] } | { ok: false; issues: string[] };

/**
 * Checks a `TodoWrite` input (`{ todos: [{ content, status, activeForm }] }`). Each issue names
 * the bad field, e.g. `todos[2].status: must be one of "pending", "in_progress", "completed", got "done"`.
 * Several items may be `in_progress` at once (real Claude Code sessions do this).
 */
export function validateTodos(input: unknown): TodoValidation {
  const result = validateWithSchema(TodoListSchema, input);
  if (!result.ok) return result;
  // Rebuild plain items: the list is stored and sent around, so it must hold nothing else.
  return {
    ok: true,
    todos: result.value.todos.map(({ content, status, activeForm }) => ({ content, status, activeForm })),
  };
}
