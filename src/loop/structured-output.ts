import { ConfigurationError } from '../errors/configuration-error.js';
import { extractJson } from '../plan/extract-json.js';
import { checkJsonSchemaCompiles, schemaToJsonSchema, validateWithSchema, type ValueSchema } from '../plan/value-schema.js';
import type { Model, RequestTool, ToolDefinition } from '../model/model.js';
import { cutOffReason, type CutOffStopReason } from './cut-off-answer.js';
import { rootCombinator } from '../tools/root-combinator.js';

/** The name of the tool a model without native structured output gives its final answer with. */
export const STRUCTURED_OUTPUT_TOOL_NAME = 'StructuredOutput';

/** How a run without native structured output gets its typed answer. */
export type OutputMode = 'tool' | 'text';

/** How a run gets its typed answer, as `RunOptions.outputMode` takes it. */
export type RunOutputMode = 'native' | OutputMode;

/** What a run asked for a typed `output` needs through the loop. */
export interface OutputRequest {
  schema: ValueSchema;
  /** The JSON Schema sent to the model (natively) or shown in the prompt. */
  jsonSchema: Record<string, unknown> | undefined;
  /** The model constrains its answer natively (`outputFormat` on each request). */
  native: boolean;
  /**
   * Without native support: `tool` — the answer is the input of a final `StructuredOutput` call
   * (the tool is sent on this run's requests only); `text` — a JSON object in the final message.
   */
  mode: OutputMode;
  /** For `tool` mode: the `StructuredOutput` tool, sent after the agent's tools on this run's requests. */
  toolDefinition?: ToolDefinition;
  /** This run's tool list, kept while the agent's list is unchanged (the same array every turn). */
  runTools?: { source: readonly RequestTool[]; length: number; tools: RequestTool[] };
  /** For `tool` mode: the schema is not an object (or has oneOf/anyOf/allOf at its top), so the tool's input wraps it as `{ output }`. */
  wrapped?: boolean;
  /** How many more answers may be asked for after an invalid one. */
  retries: number;
}

/** The result of checking a final answer. */
export type OutputCheck = { ok: true; value: unknown } | { ok: false; issues: string[]; retryPrompt: string };

/**
 * Prepares a run's typed output: checks the schema and the retry count, and decides between the
 * model's native structured output (by default where the model has it), a `StructuredOutput`
 * tool and a schema shown in the prompt (what `mode` asks for, on any model).
 * @throws ConfigurationError for a schema that is not one, a bad `outputRetries` or `outputMode`,
 * or `'native'` where the model or the schema cannot give it.
 */
export function prepareOutput(model: Model, schema: ValueSchema, retries: number | undefined, mode: RunOutputMode | undefined): OutputRequest {
  if (typeof schema !== 'object' || schema === null) {
    throw new ConfigurationError(`run(): \`outputSchema\` must be a zod schema, a Standard Schema validator or a JSON Schema object, got ${schema === null ? 'null' : typeof schema}.`);
  }
  if (retries !== undefined && !(Number.isInteger(retries) && retries >= 0 && retries <= 10)) {
    throw new ConfigurationError(`run(): \`outputRetries\` must be a whole number from 0 to 10, got ${JSON.stringify(retries)}.`);
  }
  if (mode !== undefined && mode !== 'native' && mode !== 'tool' && mode !== 'text') {
    throw new ConfigurationError(`run(): \`outputMode\` must be "native", "tool" or "text", got ${JSON.stringify(mode)}.`);
  }
  if (mode === 'native' && model.structuredOutput !== true) {
    throw new ConfigurationError(`run(): \`outputMode: "native"\` needs a model with native structured output, and the model "${model.modelId}" has none (its \`structuredOutput\` is not true): leave \`outputMode\` out to use what the model has, or pass "tool" or "text".`);
  }
  checkJsonSchemaCompiles(schema, 'run(): the JSON Schema given as `outputSchema`');
  const jsonSchema = schemaToJsonSchema(schema, 'run(): `outputSchema`');
  if (mode === 'native' && jsonSchema === undefined) {
    throw new ConfigurationError('run(): `outputMode: "native"` needs an `outputSchema` with a JSON Schema (a zod schema or a JSON Schema object); this validator has none, so its answer can only come as text: leave `outputMode` out, or pass "text".');
  }
  // Native where the model has it, unless the run asks for a tool or text (which keep the
  // session's cached prefix: the API adds a system prompt of its own for a native format).
  const native = model.structuredOutput === true && jsonSchema !== undefined && (mode === undefined || mode === 'native');
  // A validator with no JSON Schema cannot be a tool's input schema: its answer comes as text.
  if (native || jsonSchema === undefined || mode === 'text') return { schema, jsonSchema, native, mode: 'text', retries: retries ?? 1 };
  // The API takes an input schema only as an object schema without oneOf/anyOf/allOf at its top.
  const wrapped = jsonSchema.type !== 'object' || rootCombinator(jsonSchema) !== undefined;
  const definition: ToolDefinition = {
    name: STRUCTURED_OUTPUT_TOOL_NAME,
    description: 'Gives your final answer, in the required shape. Call it once, on its own, when you have finished; the run ends with it.',
    input_schema: wrapped ? { type: 'object', properties: { output: jsonSchema }, required: ['output'], additionalProperties: false } : jsonSchema,
  };
  return { schema, jsonSchema, native, mode: 'tool', toolDefinition: definition, ...(wrapped ? { wrapped } : {}), retries: retries ?? 1 };
}

/**
 * The way a run's answer is given on an agent whose request tools are `tools`: an agent with no
 * tools at all answers in text instead of with `StructuredOutput`, since the call and its result
 * would stay in the history, and the Messages API refuses every later request that carries
 * `tool_use` or `tool_result` blocks but defines no tools.
 */
export function outputForTools(request: OutputRequest, tools: readonly RequestTool[]): OutputRequest {
  if (request.mode !== 'tool' || tools.length > 0) return request;
  return { schema: request.schema, jsonSchema: request.jsonSchema, native: request.native, mode: 'text', retries: request.retries };
}

/**
 * The tools sent on a turn of a run that gives its answer with `StructuredOutput`: the agent's
 * tools (the stable prefix), then that tool.
 * @param hasTool - whether the agent has a tool of a name, deferred ones included.
 * @throws ConfigurationError when the agent has a tool of that name.
 */
export function toolsWithOutputTool(request: OutputRequest, tools: RequestTool[], hasTool: (name: string) => boolean = () => false): RequestTool[] {
  if (!request.toolDefinition) return tools;
  const cached = request.runTools;
  if (cached && cached.source === tools && cached.length === tools.length) return cached.tools;
  // A deferred tool of that name counts too: found with the client-side ToolSearch, the model could call it.
  if (hasTool(STRUCTURED_OUTPUT_TOOL_NAME) || tools.some((tool) => tool.name === STRUCTURED_OUTPUT_TOOL_NAME)) {
    throw new ConfigurationError(`run(): the agent has a tool named ${STRUCTURED_OUTPUT_TOOL_NAME}, the name of the tool typed output is given with; rename it, or pass outputMode: "text".`);
  }
  const withOutput = [...tools, request.toolDefinition];
  request.runTools = { source: tools, length: tools.length, tools: withOutput };
  return withOutput;
}

/** The text added to the prompt when the model has no native structured output. */
export function outputInstruction(request: OutputRequest): string {
  if (request.mode === 'tool') {
    return `When you have finished, give your final answer by calling the ${STRUCTURED_OUTPUT_TOOL_NAME} tool once, on its own; its input schema is the shape required. Do not write the answer as text.`;
  }
  const shape = request.jsonSchema ? `valid against this JSON Schema:\n\n${JSON.stringify(request.jsonSchema, null, 2)}` : 'of the shape described above';
  return `When you have finished, give your final answer as a single JSON object ${shape}\n\nYour final message must be only that JSON object: no text before or after it, and no code fences.`;
}

/** Checks the input of a `StructuredOutput` call against the run's schema. */
export function checkOutputCall(input: unknown, request: OutputRequest): OutputCheck {
  // A wrapped answer without `output` is no answer, also for a schema that would take undefined ({}, z.unknown()).
  const given = !request.wrapped || (typeof input === 'object' && input !== null && Object.hasOwn(input, 'output'));
  const value = request.wrapped ? (input as { output?: unknown } | null)?.output : input;
  const validated = given ? validateWithSchema(request.schema, value) : { ok: false as const, issues: ['output: required (the answer goes in the `output` field of the input)'] };
  if (validated.ok) return { ok: true, value: validated.value };
  return {
    ok: false,
    issues: validated.issues,
    retryPrompt: `The answer did not match the required schema:\n${validated.issues.map((issue) => `- ${issue}`).join('\n')}\n\nCall ${STRUCTURED_OUTPUT_TOOL_NAME} again with the complete, corrected answer.`,
  };
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
  const issues = extracted.issues.length > 0 ? extracted.issues : [extracted.error];
  if (request.mode === 'tool') {
    // A JSON answer in text is taken too; otherwise the model is reminded of the tool.
    return {
      ok: false,
      issues,
      retryPrompt: ['Your final answer could not be used.', '', extracted.error.trim(), '', `Your final answer must be given by calling the ${STRUCTURED_OUTPUT_TOOL_NAME} tool, on its own, with the complete answer as its input.`].join('\n'),
    };
  }
  return { ok: false, issues, retryPrompt: retryPrompt(extracted.error) };
}

/**
 * The check of a final answer that was cut off (the output limit, the context window, a
 * refusal): never valid, whatever part of it parses, since the part may be a half answer.
 */
export function cutOffOutput(stopReason: CutOffStopReason, request: OutputRequest): OutputCheck {
  const how = request.mode === 'tool' && !request.native ? `by calling the ${STRUCTURED_OUTPUT_TOOL_NAME} tool, on its own,` : 'as one JSON object with the required shape, and nothing else,';
  return {
    ok: false,
    issues: [`the answer was cut off before it ended: ${cutOffReason(stopReason)}`],
    retryPrompt: [`Your final answer could not be used: it was cut off before it ended (${cutOffReason(stopReason)}), so it may be incomplete.`, '', `Send the complete answer again ${how} keeping it short enough to finish.`].join('\n'),
  };
}

function invalid(issues: string[]): OutputCheck {
  return { ok: false, issues, retryPrompt: retryPrompt(`Your answer did not match the required JSON Schema:\n${issues.map((issue) => `- ${issue}`).join('\n')}`) };
}

function retryPrompt(problem: string): string {
  return ['Your final answer could not be used.', '', problem.trim(), '', 'Send the complete answer again as one JSON object with the required shape, and nothing else.'].join('\n');
}
