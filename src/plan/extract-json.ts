import { findFencedBlocks, jsonCandidates, MAX_NESTING, type JsonCandidate, type JsonCandidateStrategy } from './json-candidates.js';
import { validateWithSchema, type InferSchemaOutput, type ValueSchema } from './value-schema.js';
import { checkOptions, isSchema, type OptionsSpec } from '../options/index.js';
import { nestingDepthOver } from '../history/nesting-depth-over.js';

/** How JSON wrapped in another layer was unwrapped. */
export type JsonUnwrap =
  /** A JSON string whose content is JSON (double-encoded). */
  | 'json-string'
  /** An object with a single field holding the real value (as a JSON string, or, with a schema, as an object). */
  | 'envelope';

/**
 * Why {@link extractJson} failed. `search-limit`: the answer is so large (or so full of brackets)
 * that the search stopped before its end without finding a usable value.
 */
export type ExtractJsonFailureReason = 'no-json' | 'truncated' | 'invalid-json' | 'schema' | 'search-limit';

/** {@link extractJson} found a value. */
export interface ExtractJsonSuccess<T> {
  ok: true;
  value: T;
  /** Where the JSON was found. */
  strategy: JsonCandidateStrategy;
  /** Layers removed to reach the value, outermost first; empty for plain JSON. */
  unwrapped: JsonUnwrap[];
}

/** {@link extractJson} found no usable value. */
export interface ExtractJsonFailure {
  ok: false;
  /** What went wrong, addressed to the model so it can be sent back as is. */
  error: string;
  reason: ExtractJsonFailureReason;
  /** For `schema`: one line per problem, each naming the field. */
  issues: string[];
}

/** The result of {@link extractJson}. */
export type ExtractJsonResult<T> = ExtractJsonSuccess<T> | ExtractJsonFailure;

/** Options of {@link extractJson}. */
export interface ExtractJsonOptions<S extends ValueSchema | undefined> {
  /**
   * Validates the value (zod 4, zod 3 bare or wrapped by `zod3Schema`, a Standard Schema validator, or JSON Schema). With a
   * schema, the first candidate that validates wins, also after unwrapping an object envelope.
   * @default undefined (any JSON value is accepted)
   */
  schema?: S;
}

interface Variant {
  value: unknown;
  unwrapped: JsonUnwrap[];
  /** Reached through an object-valued envelope (only tried against a schema). */
  objectEnvelope: boolean;
}

const MAX_DEPTH = 3;
const ASK_AGAIN = 'Reply with only the JSON value: no prose, no code fences.';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; message: string; tooDeep?: true } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  if (nestingDepthOver(value, MAX_NESTING)) return { ok: false, message: `it nests arrays and objects more than ${MAX_NESTING} levels deep`, tooDeep: true };
  return { ok: true, value };
}

/**
 * JSON held in a string: the whole trimmed string, or a fenced block covering the whole string.
 * Never a span in the middle: `"see [1]"` is text that mentions brackets, not an array.
 */
function jsonInString(text: string, depth: number): unknown[] {
  if (depth >= MAX_DEPTH) return [];
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  const inner = wholeFence(trimmed) ?? trimmed;
  if (!/^[{["]/.test(inner)) return [];
  const parsed = tryParse(inner);
  // Objects and arrays, or a string that is itself encoded JSON (encoded more than twice).
  if (parsed.ok && ((typeof parsed.value === 'object' && parsed.value !== null) || (typeof parsed.value === 'string' && /^\s*[{["`~]/.test(parsed.value)))) {
    return [parsed.value];
  }
  return [];
}

/** The content of the fenced block that is the whole of `text` (opening line first, closing line last). */
function wholeFence(text: string): string | undefined {
  if (!/^(`{3,}|~{3,})/.test(text)) return undefined;
  const blocks = findFencedBlocks(text);
  const block = blocks[0];
  if (blocks.length !== 1 || !block?.terminated) return undefined;
  // The block spans every line but the opening and closing fences.
  return block.content.split('\n').length === text.split('\n').length - 2 ? block.content.trim() : undefined;
}

/** The value and the values inside its wrappers, outermost first. */
function variantsOf(value: unknown, depth = 0, path: JsonUnwrap[] = [], objectEnvelope = false): Variant[] {
  const variants: Variant[] = [{ value, unwrapped: path, objectEnvelope }];
  if (depth >= MAX_DEPTH) return variants;
  if (typeof value === 'string') {
    for (const inner of jsonInString(value, depth)) variants.push(...variantsOf(inner, depth + 1, [...path, 'json-string'], objectEnvelope));
  } else if (isRecord(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1) {
      const field = value[keys[0] as string];
      if (typeof field === 'string') {
        for (const inner of jsonInString(field, depth)) variants.push(...variantsOf(inner, depth + 1, [...path, 'envelope'], objectEnvelope));
      } else if (typeof field === 'object' && field !== null) {
        variants.push(...variantsOf(field, depth + 1, [...path, 'envelope'], true));
      }
    }
  }
  return variants;
}

/** {@link validateWithSchema}, with a value nested beyond what the schema's validator can recurse into as a failure. */
function validateSafely(schema: ValueSchema, value: unknown): ReturnType<typeof validateWithSchema> {
  try {
    return validateWithSchema(schema, value);
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, issues: ['(the whole value): nested too deeply to check'] };
    throw error;
  }
}

function truncationError(candidate: JsonCandidate): string {
  const open = candidate.openBrackets ?? 0;
  const what = open > 0 ? ` (${open} object${open === 1 ? '' : 's'} or array${open === 1 ? '' : 's'} still open at the end)` : '';
  return `Your JSON is cut off before it ends${what}. Send the complete JSON again, shorter if it has to be. ${ASK_AGAIN}`;
}

const OPTIONS: OptionsSpec<ExtractJsonOptions<undefined>> = { schema: isSchema };

/**
 * Finds the JSON in a model's answer: the whole text, then fenced code blocks, then balanced
 * `{...}` or `[...]` spans (past stray brackets in prose) and the values nested in them; unwraps
 * JSON sent as a JSON string (double-encoded: the whole string, or a fence covering it) or inside
 * an envelope (`{"plan": "{...}"}`, or with a schema also `{"plan": {...}}`); and validates it
 * against the schema. The search has a budget proportional to the text, so a huge answer costs
 * linear time; when it runs out first, the failure says so (`search-limit`). Never throws for
 * any text (only for an unusable schema). The failure's `error` is addressed to the model, ready to send back.
 * @example
 * const result = extractJson(answer, { schema: PlanSchema });
 * if (!result.ok) await agent.run(buildPlanRetryPrompt(result.error));
 */
export function extractJson<S extends ValueSchema | undefined = undefined>(
  text: string,
  options: ExtractJsonOptions<S> = {},
): ExtractJsonResult<S extends ValueSchema ? InferSchemaOutput<S> : unknown> {
  checkOptions<ExtractJsonOptions<undefined>>(options, OPTIONS, { owner: 'extractJson', optional: true });
  type Out = S extends ValueSchema ? InferSchemaOutput<S> : unknown;
  const { schema } = options;
  let schemaFailure: { issues: string[] } | undefined;
  let truncated: JsonCandidate | undefined;
  let parseFailure: { candidate: JsonCandidate; message: string; tooDeep?: boolean } | undefined;

  let budgetExhausted = false;
  /** Values already validated (a nested value is also its parent's envelope variant). */
  const validated = new WeakSet<object>();
  const input = typeof text === 'string' ? text : String(text);
  const search = jsonCandidates(input);
  for (let step = search.next(); ; step = search.next()) {
    if (step.done) {
      budgetExhausted = step.value.budgetExhausted;
      break;
    }
    const candidate = step.value;
    if (!candidate.parses) {
      if (candidate.truncated) truncated ??= candidate;
      else if (parseFailure === undefined && candidate.text !== undefined && /^[{["]/.test(candidate.text)) {
        const parsed = tryParse(candidate.text);
        if (!parsed.ok) parseFailure = { candidate, message: parsed.message, ...(parsed.tooDeep ? { tooDeep: true } : {}) };
      }
      continue;
    }
    // Balanced spans are objects or arrays by construction; a whole text may be any JSON value.
    const variants = variantsOf(candidate.value);
    if (schema === undefined) {
      const plain = variants.filter((variant) => !variant.objectEnvelope);
      const chosen = plain[plain.length - 1] as Variant;
      return { ok: true, value: chosen.value as Out, strategy: candidate.strategy, unwrapped: chosen.unwrapped };
    }
    let best: string[] | undefined;
    for (const variant of variants) {
      if (typeof variant.value === 'object' && variant.value !== null) {
        if (validated.has(variant.value)) continue;
        validated.add(variant.value);
      }
      const validation = validateSafely(schema, variant.value);
      if (validation.ok) return { ok: true, value: validation.value as Out, strategy: candidate.strategy, unwrapped: variant.unwrapped };
      if (!best || validation.issues.length < best.length) best = validation.issues;
    }
    if (best) schemaFailure ??= { issues: best };
  }

  if (schemaFailure) {
    return {
      ok: false,
      reason: 'schema',
      issues: schemaFailure.issues,
      error: `Your JSON does not have the required shape:\n${schemaFailure.issues.map((issue) => `- ${issue}`).join('\n')}\nFix these fields and send the whole JSON again. ${ASK_AGAIN}`,
    };
  }
  if (truncated) return { ok: false, reason: 'truncated', issues: [], error: truncationError(truncated) };
  if (budgetExhausted) {
    return {
      ok: false,
      reason: 'search-limit',
      issues: [],
      error: `Your answer is too long (${input.length} characters) to search all of it for the JSON, and the part searched has none that fits. ${ASK_AGAIN}`,
    };
  }
  if (parseFailure) {
    return {
      ok: false,
      reason: 'invalid-json',
      issues: [],
      error: parseFailure.tooDeep
        ? `Your answer has JSON that nests arrays and objects more than ${MAX_NESTING} levels deep, which cannot be used. Send it again with less nesting. ${ASK_AGAIN}`
        : `Your answer has JSON that cannot be parsed (${parseFailure.message}). Use double quotes around keys and strings, no trailing commas and no comments. ${ASK_AGAIN}`,
    };
  }
  return { ok: false, reason: 'no-json', issues: [], error: `Your answer contains no JSON. ${ASK_AGAIN}` };
}
