import { z } from 'zod/v4';
import type { AgentServices } from './agent-services.js';
import { defineTool } from '../define-tool.js';
import { precompiledInputSchema } from '../input-schema.js';
import { MAX_TODO_TEXT_CHARS, MAX_TODOS } from '../../types/todo.js';

const DESCRIPTION = `Create and update your todo list for the current task. It is the single source of truth for progress, and the user sees it.
Use it for tasks with several steps: write the whole list, keep exactly one item in_progress while working, and mark each item completed as soon as it is done (do not batch completions). Send the full list every time; it replaces the previous one.`;

const CONTENT = 'What is to be done, imperative: "Draft the introduction".';
const ACTIVE_FORM = 'Present continuous, shown while in progress: "Drafting the introduction".';
const TODOS = 'The full, updated todo list.';

/** The input schema, built at the tool's first call (see below), not at import. Exported for its test. @internal */
export function todoWriteInput() {
  const todo = z.object({
    content: z.string().min(1).max(MAX_TODO_TEXT_CHARS, `at most ${MAX_TODO_TEXT_CHARS} characters: say what is to be done in a sentence`).describe(CONTENT),
    status: z.enum(['pending', 'in_progress', 'completed']),
    activeForm: z.string().min(1).max(MAX_TODO_TEXT_CHARS, `at most ${MAX_TODO_TEXT_CHARS} characters`).describe(ACTIVE_FORM),
  });
  return z.object({ todos: z.array(todo).max(MAX_TODOS, `at most ${MAX_TODOS} items: group the steps into fewer, larger ones`).describe(TODOS) });
}

/** What zod's converter makes of {@link todoWriteInput}, written out (see `precompiledInputSchema`). */
const todoWriteJsonSchema = () => ({
  type: 'object',
  properties: {
    todos: {
      maxItems: MAX_TODOS,
      type: 'array',
      items: {
        type: 'object',
        properties: {
          content: { type: 'string', minLength: 1, maxLength: MAX_TODO_TEXT_CHARS, description: CONTENT },
          status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
          activeForm: { type: 'string', minLength: 1, maxLength: MAX_TODO_TEXT_CHARS, description: ACTIVE_FORM },
        },
        required: ['content', 'status', 'activeForm'],
        additionalProperties: false,
      },
      description: TODOS,
    },
  },
  required: ['todos'],
  additionalProperties: false,
});

/**
 * Checked and compiled once, at the first agent (not per agent: createAgent's cost; nor at import:
 * a cold start's), and each agent gets a copy whose `execute` reaches its own services.
 */
const defineTodoWrite = () =>
  defineTool({
    name: 'TodoWrite',
    description: DESCRIPTION,
    inputSchema: precompiledInputSchema(todoWriteJsonSchema(), todoWriteInput),
    // Touches only the agent's own state: allowed in plan mode and without asking.
    readOnly: true,
    concurrencySafe: false,
    execute: (): string => {
      throw new Error('TodoWrite runs only in the copy createTodoWriteTool() makes for an agent.');
    },
  });

let todoWriteBase: ReturnType<typeof defineTodoWrite> | undefined;

/** The built-in `TodoWrite` tool: replaces the agent's todo list with the full list given. */
export function createTodoWriteTool(agent: () => AgentServices): ReturnType<typeof defineTodoWrite> {
  return {
    ...(todoWriteBase ??= defineTodoWrite()),
    execute: ({ input }) => {
      agent().setTodos(input.todos);
      const open = input.todos.filter((todo) => todo.status !== 'completed').length;
      return `Todos have been modified successfully (${input.todos.length} items, ${open} not completed). Keep using the todo list to track your progress, and proceed with the current task.`;
    },
  };
}
