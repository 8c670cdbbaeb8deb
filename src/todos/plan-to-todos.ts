import type { PlanStep, StructuredPlan } from '../plan/plan-schema.js';
import { toActiveForm } from './active-form.js';
import type { Todo } from '../types/todo.js';
import { checkOptions, isFunction, type OptionsSpec } from '../options/index.js';

/** Options of {@link planToTodos}. */
export interface PlanToTodosOptions {
  /**
   * Builds the `activeForm` of a step's todo.
   * @default a present-continuous form of the title ("Draft the intro" → "Drafting the intro"),
   * or "Working on: {title}" when the title does not start with a known verb
   */
  activeForm?: (step: PlanStep) => string;
}

const OPTIONS: OptionsSpec<PlanToTodosOptions> = { activeForm: isFunction };

/**
 * Turns a structured plan's steps into a todo list, every item `pending`, in step order. The
 * library never does this on its own: call it when the host wants the plan as the starting list
 * (then hand the result to `agent.setTodos`).
 * @example agent.setTodos(planToTodos(plan));
 */
export function planToTodos(plan: Pick<StructuredPlan, 'steps'>, options: PlanToTodosOptions = {}): Todo[] {
  checkOptions<PlanToTodosOptions>(options, OPTIONS, { owner: 'planToTodos', optional: true });
  const activeForm = options.activeForm ?? ((step: PlanStep) => toActiveForm(step.title));
  return plan.steps.map((step) => ({ content: step.title.trim(), status: 'pending', activeForm: activeForm(step) }));
}
