import * as z4 from 'zod/v4/core';
import { fromJSONSchema } from 'zod/v4';
import { ConfigurationError } from '../errors/configuration-error.js';
import { headOfText } from '../model/code-point-boundary.js';
import type { JsonSchemaObject, Zod4Schema } from '../tools/input-schema.js';
import { isZod3, isZod3WithJsonSchema, zod3ConverterMissing, type Zod3Schema, type Zod3WithJsonSchema } from '../tools/zod3-with-json-schema.js';
import { zod4ToJsonSchema } from '../tools/zod4-to-json-schema.js';

/** The parts of a Standard Schema (v1) validator this library uses (valibot, arktype, zod, ...). */
export interface StandardSchemaLike<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown):
      | { value: Output; issues?: undefined }
      | { issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> }
      | Promise<unknown>;
    readonly types?: { readonly output: Output } | undefined;
  };
}

/**
 * A schema for a value: zod 4, zod 3 (wrapped by `zod3Schema` from `agent-harness/zod3` where the
 * model is shown its JSON Schema; bare where it only validates), any Standard Schema validator, or
 * a plain JSON Schema object.
 */
export type ValueSchema = Zod4Schema | Zod3WithJsonSchema | Zod3Schema | StandardSchemaLike | JsonSchemaObject;

/** The type a schema validates to (`unknown` for plain JSON Schema). */
export type InferSchemaOutput<S> = S extends z4.$ZodType
  ? z4.output<S>
  : S extends Zod3WithJsonSchema<infer Z>
    ? Z['_output']
    : S extends { readonly _output: infer O; readonly _def: unknown }
      ? O
      : S extends { readonly '~standard': { readonly types?: { readonly output: infer O } | undefined } }
        ? O
        : unknown;

/** The result of {@link validateWithSchema}. */
export type SchemaValidation<T = unknown> = { ok: true; value: T } | { ok: false; issues: string[] };

interface IssueLike {
  readonly path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
  readonly message: string;
  readonly code?: string;
  readonly expected?: unknown;
  readonly received?: unknown;
  readonly input?: unknown;
  readonly values?: readonly unknown[];
  readonly minimum?: unknown;
  readonly origin?: string;
}

function isZod4(schema: unknown): schema is Zod4Schema {
  return typeof schema === 'object' && schema !== null && '_zod' in schema;
}

function isStandard(schema: unknown): schema is StandardSchemaLike {
  return typeof schema === 'object' && schema !== null && '~standard' in schema;
}

/** `todos[0].status`; the empty path is the whole value. */
export function formatIssuePath(path: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined): string {
  let text = '';
  for (const raw of path ?? []) {
    const segment = typeof raw === 'object' && raw !== null ? raw.key : raw;
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) text += text ? `.${segment}` : segment;
    else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text || '(the whole value)';
}

/** The longest value description in an issue line. */
const DESCRIPTION_LIMIT = 60;

/**
 * A short description of a value for an issue line: its JSON, cut at 60 characters. Reads only
 * as much of the value as it shows, so it is cheap for huge values and never throws (deep
 * nesting, cycles, a throwing `toJSON`, a bigint).
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = jsonPreview(value, DESCRIPTION_LIMIT + 1);
  } catch {
    text = shallowDescription(value);
  }
  return text.length > DESCRIPTION_LIMIT ? `${headOfText(text, DESCRIPTION_LIMIT - 3)}...` : text;
}

/** The start of `JSON.stringify(value)`, at least `limit` characters of it when it is that long. */
function jsonPreview(value: unknown, limit: number): string {
  let out = '';
  // Each level writes at least one character, so the recursion stops within `limit` levels.
  const write = (item: unknown, inArray: boolean): void => {
    if (out.length >= limit) return;
    if (typeof item === 'string') {
      out += JSON.stringify(item.length > limit ? item.slice(0, limit) : item);
    } else if (typeof item !== 'object' || item === null || typeof (item as { toJSON?: unknown }).toJSON === 'function') {
      out += JSON.stringify(item) ?? (inArray ? 'null' : String(item));
    } else if (Array.isArray(item)) {
      out += '[';
      for (let index = 0; index < item.length && out.length < limit; index++) {
        if (index > 0) out += ',';
        write(item[index], true);
      }
      out += ']';
    } else {
      out += '{';
      let first = true;
      for (const key in item) {
        if (out.length >= limit) break;
        if (!Object.prototype.hasOwnProperty.call(item, key)) continue;
        const field = (item as Record<string, unknown>)[key];
        if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
        if (!first) out += ',';
        first = false;
        out += `${JSON.stringify(key)}:`;
        write(field, false);
      }
      out += '}';
    }
  };
  write(value, false);
  return out;
}

function shallowDescription(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object' && value !== null) return 'an object';
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}

/**
 * One line per issue, each starting with the field it is about, phrased so a model (or a person)
 * can fix the value: `todos[0].status: must be one of "pending", "in_progress", "completed", got "done"`.
 */
export function formatSchemaIssues(issues: ReadonlyArray<IssueLike>): string[] {
  return issues.map((issue) => {
    const path = formatIssuePath(issue.path);
    const missing = 'input' in issue ? issue.input === undefined : issue.received === 'undefined';
    switch (issue.code) {
      case 'invalid_type':
        if (missing) return `${path}: is missing (expected ${String(issue.expected)})`;
        return `${path}: expected ${String(issue.expected)}, got ${'input' in issue ? describeValue(issue.input) : String(issue.received)}`;
      case 'invalid_value':
      case 'invalid_enum_value':
        if (issue.values) {
          return `${path}: must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}${'input' in issue ? `, got ${describeValue(issue.input)}` : ''}`;
        }
        break;
      case 'too_small':
        if (issue.origin === 'string' && issue.minimum === 1) return `${path}: must not be empty`;
        break;
    }
    return `${path}: ${issue.message}`;
  });
}

const jsonSchemaValidators = new WeakMap<object, Zod4Schema>();

function jsonSchemaValidator(schema: JsonSchemaObject, where = 'The JSON Schema given as `schema`'): Zod4Schema {
  let validator = jsonSchemaValidators.get(schema);
  if (!validator) {
    try {
      validator = fromJSONSchema(schema as never) as unknown as Zod4Schema;
    } catch (cause) {
      throw new ConfigurationError(`${where} cannot be used for validation (${String(cause)}). Pass a zod schema, or a simpler JSON Schema.`, { cause });
    }
    jsonSchemaValidators.set(schema, validator);
  }
  return validator;
}

/**
 * Compiles the validator of a plain JSON Schema object now (it is cached), so that one zod cannot
 * compile is refused where it is passed rather than when the first answer is checked. Other
 * schemas (zod, Standard Schema) are left alone.
 * @param where - Names the schema in the error, e.g. `run(): the JSON Schema given as \`outputSchema\``.
 * @throws ConfigurationError naming `where` for a JSON Schema zod cannot compile.
 */
export function checkJsonSchemaCompiles(schema: ValueSchema, where: string): void {
  if (typeof schema !== 'object' || schema === null || isZod4(schema) || isZod3(schema) || isZod3WithJsonSchema(schema) || isStandard(schema)) return;
  jsonSchemaValidator(schema as JsonSchemaObject, where);
}

/**
 * Validates a value against any supported schema.
 * @throws ConfigurationError for an asynchronous Standard Schema, or a JSON Schema zod cannot compile.
 */
export function validateWithSchema<S extends ValueSchema>(schema: S, value: unknown): SchemaValidation<InferSchemaOutput<S>> {
  type Out = InferSchemaOutput<S>;
  if (isZod4(schema)) {
    const result = z4.safeParse(schema, value, { reportInput: true });
    return result.success ? { ok: true, value: result.data as Out } : { ok: false, issues: formatSchemaIssues(result.error.issues as IssueLike[]) };
  }
  const zod3 = isZod3WithJsonSchema(schema) ? schema.zod3 : isZod3(schema) ? schema : undefined;
  if (zod3) {
    const result = zod3.safeParse(value);
    return result.success ? { ok: true, value: result.data as Out } : { ok: false, issues: formatSchemaIssues(result.error.issues as IssueLike[]) };
  }
  if (isStandard(schema)) {
    const result = schema['~standard'].validate(value);
    if (result instanceof Promise) {
      throw new ConfigurationError('The schema validates asynchronously; plans and JSON answers are checked synchronously. Use a schema without async refinements.');
    }
    const settled = result as { value?: unknown; issues?: ReadonlyArray<IssueLike> };
    return settled.issues ? { ok: false, issues: formatSchemaIssues(settled.issues) } : { ok: true, value: settled.value as Out };
  }
  if (typeof schema !== 'object' || schema === null) {
    throw new ConfigurationError(`\`schema\` must be a zod schema, a Standard Schema validator or a JSON Schema object, got ${schema === null ? 'null' : typeof schema}.`);
  }
  const result = z4.safeParse(jsonSchemaValidator(schema as JsonSchemaObject), value, { reportInput: true });
  return result.success ? { ok: true, value: value as Out } : { ok: false, issues: formatSchemaIssues(result.error.issues as IssueLike[]) };
}

/**
 * The JSON Schema of a schema, to show a model the expected shape; `undefined` when it has none.
 * @param where - Names the schema in the error for a bare zod 3 schema, e.g. `run(): \`outputSchema\``.
 * @throws ConfigurationError for a bare zod 3 schema: its JSON Schema needs `zod3Schema` (it would
 * otherwise reach the model without its shape).
 */
export function schemaToJsonSchema(schema: ValueSchema, where = 'The schema'): Record<string, unknown> | undefined {
  if (isZod3(schema)) throw zod3ConverterMissing(where);
  try {
    let jsonSchema: Record<string, unknown>;
    if (isZod4(schema)) jsonSchema = zod4ToJsonSchema(schema, 'output');
    else if (isZod3WithJsonSchema(schema)) jsonSchema = schema.jsonSchema as Record<string, unknown>;
    else if (isStandard(schema)) return undefined;
    else jsonSchema = schema as Record<string, unknown>;
    const { $schema: _ignored, ...rest } = jsonSchema;
    return rest;
  } catch {
    return undefined;
  }
}
