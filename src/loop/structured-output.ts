import { ConfigurationError } from '../errors/configuration-error.js';
import { extractJson } from '../plan/extract-json.js';
import { schemaToJsonSchema, validateWithSchema, type ValueSchema } from '../plan/value-schema.js';
import type { Model } from '../model/model.js';

/** What a run asked for a typed `output` needs through the loop. */
export interface OutputRequest {
  schema: ValueSchema;
  /** The JSON Schema sent to the model (natively) or shown in the prompt. */
  jsonSchema: Record<string, unknown> | undefined;
  /** The model constrains its answer natively (`outputFormat` on each request). */
  native: boolean;
  /** How many more answers may be asked for after an invalid one. */
  retries: number;
}

/** The result of checking a final answer. */
export type OutputCheck = { ok: true; value: unknown } | { ok: false; issues: string[]; retryPrompt: string };

/**
 * Prepares a run's typed output: checks the schema and the retry count, and decides between the
 * model's native structured output and a schema shown in the prompt.
 * @throws ConfigurationError for a schema that is not one, or a bad `outputRetries`.
 */
export function prepareOutput(model: Model, schema: ValueSchema, retries: number | undefined): OutputRequest {
  if (typeof schema !== 'object' || schema === null) {
    throw new ConfigurationError(`run(): \`outputSchema\` must be a zod schema, a Standard Schema validator or a JSON Schema object, got ${schema === null ? 'null' : typeof schema}.`);
  }
  if (retries !== undefined && !(Number.isInteger(retries) && retries >= 0 && retries <= 10)) {
    throw new ConfigurationError(`run(): \`outputRetries\` must be a whole number from 0 to 10, got ${JSON.stringify(retries)}.`);
  }
  const jsonSchema = schemaToJsonSchema(schema);
  return { schema, jsonSchema, native: model.structuredOutput === true && jsonSchema !== undefined, retries: retries ?? 1 };
}

/** The text added to the prompt when the model has no native structured output. */
export function outputInstruction(request: OutputRequest): string {
  const shape = request.jsonSchema ? `valid against this JSON Schema:\n\n${JSON.stringify(request.jsonSchema, null, 2)}` : 'of the shape described above';
  return `When you have finished, give your final answer as a single JSON object ${shape}\n\nYour final message must be only that JSON object: no text before or after it, and no code fences.`;
}

/** Checks a final answer: natively constrained answers are parsed and validated; others extracted first. */
export function checkOutput(text: string, request: OutputRequest): OutputCheck {
  if (request.native) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return invalid(['the answer is not valid JSON']);
    }
    const validated = validateWithSchema(request.schema, value);
    return validated.ok ? { ok: true, value: validated.value } : invalid(validated.issues);
  }
  const extracted = extractJson(text, { schema: request.schema });
  if (extracted.ok) return { ok: true, value: extracted.value };
  return { ok: false, issues: extracted.issues.length > 0 ? extracted.issues : [extracted.error], retryPrompt: retryPrompt(extracted.error) };
}

function invalid(issues: string[]): OutputCheck {
  return { ok: false, issues, retryPrompt: retryPrompt(`Your answer did not match the required JSON Schema:\n${issues.map((issue) => `- ${issue}`).join('\n')}`) };
}

function retryPrompt(problem: string): string {
  return ['Your final answer could not be used.', '', problem.trim(), '', 'Send the complete answer again as one JSON object with the required shape, and nothing else.'].join('\n');
}
