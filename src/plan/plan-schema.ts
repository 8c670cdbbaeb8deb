import { z } from 'zod/v4';
import { schemaBuiltOnFirstUse } from '../tools/schema-built-on-first-use.js';
import { isVisiblyBlank } from '../tools/reveal-hidden-characters.js';
import { MAX_TODO_TEXT_CHARS, MAX_TODOS } from '../types/todo.js';

/**
 * The default shape of a structured plan: what it is for, an outline of the result, the steps to
 * get there, and what could go wrong. Domain-neutral (an article, a migration, a trip). Hosts may
 * pass their own schema wherever a schema is taken.
 */
export const PlanSchema = schemaBuiltOnFirstUse(() =>
  z.object({
    goal: z.string().min(1).describe('What the work is meant to achieve, in one or two sentences.'),
    outline: z.array(z.string()).describe('The shape of the result, one line per part (sections, components, stages).'),
    steps: z
      .array(
        z.object({
          // Each step becomes a todo (planToTodos): not blank, nor invisible, nor longer than a todo may be.
          title: z
            .string()
            .regex(/\S/, 'must not be blank')
            .max(MAX_TODO_TEXT_CHARS, `at most ${MAX_TODO_TEXT_CHARS} characters: say the step in a sentence`)
            .refine((title) => !isVisiblyBlank(title), 'must not be blank (only whitespace or invisible characters)')
            .describe('The step as an imperative sentence, e.g. "Draft the introduction".'),
          detail: z.string().optional().describe('How to do it, what to watch for; optional.'),
        }),
      )
      .min(1)
      .max(MAX_TODOS, `at most ${MAX_TODOS} steps: group them into fewer, larger ones`)
      .describe('The work to do, in order.'),
    risks: z.array(z.string()).describe('What could go wrong or needs a decision; may be empty.'),
  }),
);

/** A structured plan, as {@link PlanSchema} validates it. */
export type StructuredPlan = z.output<typeof PlanSchema>;

/** One step of a {@link StructuredPlan}. */
export type PlanStep = StructuredPlan['steps'][number];
