import type { ExtractJsonFailure } from './extract-json.js';
import { PlanSchema } from './plan-schema.js';
import { schemaToJsonSchema, type ValueSchema } from './value-schema.js';
import { checkOptions, isSchema, isString, type OptionsSpec } from '../options/index.js';
import { argumentError, isObjectValue } from '../errors/argument-error.js';

/** Options of {@link buildPlanRequestPrompt}. */
export interface BuildPlanRequestPromptOptions {
  /**
   * The shape the plan must have; its JSON Schema is shown to the model.
   * @default PlanSchema
   */
  schema?: ValueSchema;
  /**
   * Text placed before the format instructions (what the plan is for, what to focus on).
   * @default 'Exploration is over. Write the plan for the task, based on what you found.'
   */
  instructions?: string;
}

const DEFAULT_INSTRUCTIONS = 'Exploration is over. Write the plan for the task, based on what you found.';

const OPTIONS: OptionsSpec<BuildPlanRequestPromptOptions> = { schema: isSchema, instructions: isString };

/**
 * The message asking the model, in the same session, for its plan as JSON: the host's
 * instructions, the JSON Schema of the expected shape, and the rule to answer with JSON only.
 */
export function buildPlanRequestPrompt(options: BuildPlanRequestPromptOptions = {}): string {
  checkOptions<BuildPlanRequestPromptOptions>(options, OPTIONS, { owner: 'buildPlanRequestPrompt', optional: true });
  const schema = options.schema ?? PlanSchema;
  const jsonSchema = schemaToJsonSchema(schema, 'The plan `schema`');
  const shape = jsonSchema
    ? `It must be valid against this JSON Schema:\n\n${JSON.stringify(jsonSchema, null, 2)}`
    : 'It must have the shape you were asked for.';
  return [
    options.instructions ?? DEFAULT_INSTRUCTIONS,
    '',
    `Answer with the plan as a single JSON object. ${shape}`,
    '',
    'Reply with only the JSON object: no text before or after it, no code fences, and do not call any tools.',
  ].join('\n');
}

/**
 * The message sent when the model's plan could not be used: what was wrong (the `error` of an
 * `extractJson` failure, already addressed to the model) and the request to answer again.
 */
export function buildPlanRetryPrompt(error: string | Pick<ExtractJsonFailure, 'error'>): string {
  if (typeof error !== 'string' && !(isObjectValue(error) && typeof error.error === 'string')) throw argumentError('buildPlanRetryPrompt', 'error', 'a string or a failed extraction ({ error: string })', error);
  const problem = typeof error === 'string' ? error : error.error;
  return [
    'Your plan could not be used.',
    '',
    problem.trim(),
    '',
    'Send the complete plan again as one JSON object with the required shape, and nothing else.',
  ].join('\n');
}
