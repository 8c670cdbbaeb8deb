import { z } from 'zod/v4';
import { schemaBuiltOnFirstUse } from '../tools/schema-built-on-first-use.js';

/** One todo item (`TodoWrite`'s shape): `{ content, status, activeForm }`. */
export const TodoSchema = schemaBuiltOnFirstUse(() =>
  z.object({
    content: z.string().min(1).describe('What is to be done, imperative: "Draft the introduction".'),
    status: z.enum(['pending', 'in_progress', 'completed']).describe('pending, in_progress or completed.'),
    activeForm: z.string().min(1).describe('Present continuous, shown while in progress: "Drafting the introduction".'),
  }),
);

/** The `TodoWrite` input: the full new list, `{ todos: Todo[] }`. */
export const TodoListSchema = schemaBuiltOnFirstUse(() =>
  z.object({
    todos: z.array(TodoSchema).describe('The complete, updated todo list.'),
  }),
);
