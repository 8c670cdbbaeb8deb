import { z } from 'zod/v4';
import { schemaBuiltOnFirstUse } from '../tools/schema-built-on-first-use.js';
import { MAX_TODO_TEXT_CHARS, MAX_TODOS } from '../types/todo.js';

/** One todo item (`TodoWrite`'s shape): `{ content, status, activeForm }`. */
export const TodoSchema = schemaBuiltOnFirstUse(() =>
  z.object({
    content: z.string().min(1).max(MAX_TODO_TEXT_CHARS, `at most ${MAX_TODO_TEXT_CHARS} characters: say what is to be done in a sentence`).describe('What is to be done, imperative: "Draft the introduction".'),
    status: z.enum(['pending', 'in_progress', 'completed']).describe('pending, in_progress or completed.'),
    activeForm: z.string().min(1).max(MAX_TODO_TEXT_CHARS, `at most ${MAX_TODO_TEXT_CHARS} characters`).describe('Present continuous, shown while in progress: "Drafting the introduction".'),
  }),
);

/** The `TodoWrite` input: the full new list, `{ todos: Todo[] }`. */
export const TodoListSchema = schemaBuiltOnFirstUse(() =>
  z.object({
    todos: z.array(TodoSchema).max(MAX_TODOS, `at most ${MAX_TODOS} items: group the steps into fewer, larger ones`).describe('The complete, updated todo list.'),
  }),
);
