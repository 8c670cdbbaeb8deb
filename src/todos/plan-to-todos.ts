import type { PlanStep, StructuredPlan } from '../plan/plan-schema.js';
import { toActiveForm } from './active-form.js';
import { MAX_TODO_TEXT_CHARS, type Todo } from '../types/todo.js';
import { checkOptions, isFunction, type OptionsSpec } from '../options/index.js';
import { argumentError, isArrayOf, isObjectValue } from '../errors/argument-error.js';

/** Options of {@link planToTodos}. */
export interface PlanToTodosOptions {
  /**
   * Builds the `activeForm` of a step's todo.
   * @default a present-continuous form of the title ("Draft the intro" → "Drafting the intro"),
   * or "Working on: {title}" when the title does not start with a known verb, cut to
   * `MAX_TODO_TEXT_CHARS` (ending in "…") when the prefix takes it past a todo's limit
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
  if (!isObjectValue(plan) || !isArrayOf(plan.steps, (step) => isObjectValue(step) && typeof (step as { title?: unknown }).title === 'string')) throw argumentError('planToTodos', 'plan', 'a plan whose steps each have a title ({ steps: [{ title }] })', plan);
  checkOptions<PlanToTodosOptions>(options, OPTIONS, { owner: 'planToTodos', optional: true });
  const activeForm = options.activeForm ?? ((step: PlanStep) => withinTodoLimit(toActiveForm(step.title)));
  return plan.steps.map((step) => ({ content: step.title.trim(), status: 'pending', activeForm: activeForm(step) }));
}

/** A title the plan schema let through stays a valid todo once "Working on: " is put before it. */
function withinTodoLimit(text: string): string {
  if (text.length <= MAX_TODO_TEXT_CHARS) return text;
  const cut = text.slice(0, MAX_TODO_TEXT_CHARS - 1);
  // Never leave half of a surrogate pair at the cut.
  return `${/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}
