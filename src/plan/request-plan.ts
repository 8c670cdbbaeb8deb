import type { RunResult } from '../events/run-result.js';
import { PlanExtractionError } from '../errors/plan-extraction-error.js';
import type { PlanPhase } from './plan-phase.js';
import { PlanSchema, type StructuredPlan } from './plan-schema.js';
import type { InferSchemaOutput, ValueSchema } from './value-schema.js';
import { checkOptions, isSchema, isAbortSignal, isPlainObject, isPositiveInteger, isString, oneOf, type OptionsSpec } from '../options/index.js';
import { argumentError, isObjectValue } from '../errors/argument-error.js';

/** What `requestPlan` needs of an agent: a run with a typed output (an `Agent` has it). */
export interface PlanRequestAgent {
  run(prompt: string, options?: { signal?: AbortSignal; outputSchema?: ValueSchema; outputRetries?: number; outputMode?: 'native' | 'tool' | 'text' }): { result: Promise<RunResult> };
}

const DEFAULT_INSTRUCTIONS = 'Exploration is over. Write the plan for the task, based on what you found.';

/** Options of {@link requestPlan}. */
export interface RequestPlanOptions<S extends ValueSchema | undefined> {
  /**
   * The plan phase to end once a valid plan came back (it stays on while the model answers, so a
   * write attempted during the plan request is refused; on failure it stays on).
   */
  phase?: PlanPhase;
  /**
   * The shape of the plan; its JSON Schema is shown to the model and the answer is validated.
   * @default PlanSchema ({ goal, outline, steps, risks })
   */
  schema?: S;
  /**
   * What the plan is for, placed before the format instructions.
   * @default 'Exploration is over. Write the plan for the task, based on what you found.'
   */
  prompt?: string;
  /**
   * How many answers to ask for in all: after an invalid one, the model gets the validation
   * error and is asked again.
   * @default 2
   */
  maxAttempts?: number;
  /**
   * How the model gives the plan (see `RunOptions.outputMode`): `text` — a JSON object in its
   * answer, with the schema shown in the prompt, validated and asked for again when invalid; the
   * request is the session's as it is and reads the exploration from the prompt cache. `native` —
   * constrained to the schema by the model (`anthropicModel`): the API adds a system prompt for
   * the format, so that request writes the whole session to the cache again (on a session of
   * 50,000 tokens, about 62,500 tokens' price instead of 5,000).
   * @default 'text'
   */
  outputMode?: 'text' | 'native';
  /** Interrupts the run asking for the plan. */
  signal?: AbortSignal;
}

/** The plan {@link requestPlan} returns, with how it was obtained. */
export interface RequestedPlan<T> {
  plan: T;
  /** The model's answer the plan was extracted from. */
  text: string;
  /** How many answers were asked for. */
  attempts: number;
}

const OPTIONS: OptionsSpec<RequestPlanOptions<undefined>> = {
  phase: isPlainObject,
  schema: isSchema,
  prompt: isString,
  maxAttempts: isPositiveInteger,
  outputMode: oneOf(['text', 'native']),
  signal: isAbortSignal,
};

/**
 * Asks the same session for the plan as JSON, then ends the plan phase: what the agent explored
 * stays in context (no restart, no second session), and writes stay refused until a valid plan is
 * in hand. An invalid answer is sent back with the problem, once by default.
 * @throws PlanExtractionError when no valid plan came back, or the run did not complete.
 * @example
 * phase.begin();
 * await agent.run('Research tide pools for an article.').result;
 * const { plan } = await requestPlan(agent, { phase });
 * agent.setTodos(planToTodos(plan));
 */
export async function requestPlan<S extends ValueSchema | undefined = undefined>(
  agent: PlanRequestAgent,
  options: RequestPlanOptions<S> = {},
): Promise<RequestedPlan<S extends ValueSchema ? InferSchemaOutput<S> : StructuredPlan>> {
  if (!isObjectValue(agent) || typeof agent.run !== 'function') throw argumentError('requestPlan', 'agent', 'an agent (createAgent())', agent);
  checkOptions<RequestPlanOptions<undefined>>(options, OPTIONS, { owner: 'requestPlan', optional: true });
  const schema = (options.schema ?? PlanSchema) as ValueSchema;
  const maxAttempts = options.maxAttempts ?? 2;
  if (!(Number.isInteger(maxAttempts) && maxAttempts >= 1 && maxAttempts <= 11)) {
    throw new PlanExtractionError(`requestPlan: maxAttempts must be a whole number from 1 to 11, got ${JSON.stringify(maxAttempts)}.`, { attempts: 0, responseText: '' });
  }
  // A thin user of the run's typed output: the schema, validation and retries are the run's. The
  // plan comes as text ("do not call any tools"), so hosts can stream it with a partial parser.
  const prompt = `${options.prompt ?? DEFAULT_INSTRUCTIONS}\n\nAnswer with the plan. Do not call any tools.`;
  const result = await agent.run(prompt, { outputSchema: schema, outputRetries: maxAttempts - 1, outputMode: options.outputMode ?? 'text', ...(options.signal ? { signal: options.signal } : {}) }).result;
  if (result.status === 'completed') {
    // Only now: while the model answers, writes stay refused (it may call tools despite the prompt).
    options.phase?.end();
    return { plan: result.output as never, text: result.text, attempts: result.outputAttempts ?? 1 };
  }
  const failure = result.error as { issues?: string[]; attempts?: number; code?: string; refused?: boolean } | undefined;
  if (failure?.code === 'structured-output' && failure.refused) {
    throw new PlanExtractionError(
      `requestPlan: the model refused to write the plan (stop reason "refusal"), so there is none; it was not asked again, since going on from a refused answer tends to be refused again. Rephrase the task, or check it against the model's usage policy.`,
      { attempts: failure.attempts ?? 1, responseText: result.text, issues: failure.issues ?? [], cause: result.error },
    );
  }
  if (failure?.code === 'structured-output') {
    const issues = failure.issues ?? [];
    throw new PlanExtractionError(
      `requestPlan: no valid plan after ${failure.attempts ?? maxAttempts} answer(s)${issues.length ? `: ${issues.join('; ')}` : ''}. Check the schema, or raise maxAttempts.`,
      { attempts: failure.attempts ?? maxAttempts, responseText: result.text, issues, cause: result.error },
    );
  }
  throw new PlanExtractionError(
    `requestPlan: the run asking for the plan ended with status "${result.status}" instead of an answer${result.error ? ` (${result.error.message})` : ''}. Resolve what it waits for, then ask again.`,
    { attempts: 1, responseText: result.text, ...(result.error ? { cause: result.error } : {}) },
  );
}
