import * as z4 from 'zod/v4/core';
import { fromJSONSchema } from 'zod/v4';
import { ConfigurationError } from '../errors/configuration-error.js';
import { assertToolJsonSchema, isToolJsonSchemaChecked, markToolJsonSchemaChecked, requireObjectSchema } from './assert-tool-json-schema.js';
import { ownValue } from '../model/own-value.js';
import { zod4ToJsonSchema } from './zod4-to-json-schema.js';
import { isZod3, isZod3WithJsonSchema, zod3ConverterMissing, type Zod3Schema, type Zod3WithJsonSchema } from './zod3-with-json-schema.js';

export type { Zod3Schema, Zod3WithJsonSchema } from './zod3-with-json-schema.js';

/** A zod 4 schema (classic or mini). */
export type Zod4Schema = z4.$ZodType;

/** A plain JSON Schema object describing the tool input. */
export type JsonSchemaObject = Record<string, unknown> & { type?: 'object' | (string & {}) };

/**
 * What `defineTool({ inputSchema })` accepts: a zod 4 schema, a zod 3 schema wrapped by
 * `zod3Schema` (from `agent-harness/zod3`), or a JSON Schema object.
 */
export type InputSchema = Zod4Schema | Zod3WithJsonSchema | JsonSchemaObject;

/** The input type a schema describes: inferred for zod, `Record<string, unknown>` for JSON Schema. */
export type InferInput<S> = S extends z4.$ZodType
  ? z4.output<S>
  : S extends Zod3WithJsonSchema<infer Z>
    ? Z['_output']
    : Record<string, unknown>;

/** A compiled schema: the JSON Schema for the API and a validator. */
export interface CompiledSchema {
  jsonSchema: Record<string, unknown>;
  parse(value: unknown): { ok: true; value: unknown } | { ok: false; issues: string[] };
}

function isZod4(schema: unknown): schema is Zod4Schema {
  return typeof schema === 'object' && schema !== null && '_zod' in schema;
}

function formatIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string; code?: string }>, jsonSchema: Record<string, unknown>): string[] {
  return issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    // An unknown field: say which the object takes, so the model can resend without guessing.
    const accepted = issue.code === 'unrecognized_keys' ? propertyNamesAt(jsonSchema, issue.path) : undefined;
    const message = accepted?.length ? `${issue.message} (the fields it takes: ${accepted.join(', ')})` : issue.message;
    return path ? `${path}: ${message}` : message;
  });
}

/** The property names of the object schema at `path` (through `properties` and `items`), when it names them. */
function propertyNamesAt(schema: Record<string, unknown>, path: ReadonlyArray<PropertyKey>): string[] | undefined {
  let node: unknown = schema;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    const { properties, items } = node as { properties?: Record<string, unknown>; items?: unknown };
    node = typeof key === 'number' ? items : properties !== undefined && typeof key === 'string' ? ownValue(properties, key) : undefined;
  }
  const properties = typeof node === 'object' && node !== null ? (node as { properties?: unknown }).properties : undefined;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties).slice(0, 50) : undefined;
}

function stripMeta(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

/**
 * Compiles a tool's input schema once, at definition time: zod 4 through its own JSON Schema
 * converter, zod 3 with the JSON Schema `zod3Schema` made for it, plain JSON Schema as given
 * (validated with zod's `fromJSONSchema` where the installed zod has it).
 * @throws ConfigurationError when the schema is not an object schema, cannot be converted, is
 * a bare zod 3 schema, or (a plain JSON Schema) breaks JSON Schema 2020-12 (`assertToolJsonSchema`).
 */
export function compileInputSchema(toolName: string, schema: InputSchema): CompiledSchema {
  // Tools made per agent from one schema object (the built-ins, say) compile it once.
  const cached = compiled.get(schema);
  if (cached) return cached;
  const result = compile(toolName, schema);
  compiled.set(schema, result);
  return result;
}

const compiled = new WeakMap<object, CompiledSchema>();

function compile(toolName: string, schema: InputSchema): CompiledSchema {
  if (isZod4(schema)) {
    let jsonSchema: Record<string, unknown>;
    try {
      jsonSchema = zod4ToJsonSchema(schema, 'input');
    } catch (cause) {
      throw new ConfigurationError(`Tool "${toolName}": its zod input schema cannot be converted to JSON Schema (${String(cause)}). Use JSON-representable types (no transforms on the input side, no functions).`, { cause });
    }
    markToolJsonSchemaChecked(requireObjectSchema(toolName, jsonSchema));
    return { jsonSchema, parse: zodParse(() => schema, jsonSchema) };
  }
  if (isZod3(schema)) throw zod3ConverterMissing(`Tool "${toolName}": its inputSchema`);
  if (isZod3WithJsonSchema(schema)) {
    const zod3: Zod3Schema = schema.zod3;
    // A copy: the pair is frozen and shared, the tool's schema is its own.
    const jsonSchema = { ...schema.jsonSchema };
    markToolJsonSchemaChecked(requireObjectSchema(toolName, jsonSchema));
    return {
      jsonSchema,
      parse(value) {
        const result = zod3.safeParse(value);
        return result.success ? { ok: true, value: result.data } : { ok: false, issues: formatIssues(result.error.issues, jsonSchema) };
      },
    };
  }
  if (typeof schema !== 'object' || schema === null) {
    throw new ConfigurationError(`Tool "${toolName}": inputSchema must be a zod schema or a JSON Schema object, got ${schema === null ? 'null' : typeof schema}.`);
  }
  const jsonSchema = stripMeta(schema);
  // Sent as it is: checked here, not by the Messages API refusing every request. A schema
  // checked already (an MCP tool's, by createMcpTool) is not walked again: its copy without
  // `$schema` passes whatever it passed.
  if (isToolJsonSchemaChecked(schema)) markToolJsonSchemaChecked(jsonSchema);
  else assertToolJsonSchema(toolName, jsonSchema);
  // Made at the first call, not here: an MCP server may list a hundred tools per agent, most
  // never called, and zod's conversion is most of what defining one costs.
  let validator: Zod4Schema | null | undefined;
  return {
    jsonSchema,
    parse(value) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return { ok: false, issues: ['Input must be a JSON object.'] };
      }
      validator ??= (typeof fromJSONSchema === 'function' ? tryFromJsonSchema(jsonSchema) : undefined) ?? null;
      if (!validator) return { ok: true, value };
      const result = z4.safeParse(validator, value);
      return result.success ? { ok: true, value } : { ok: false, issues: formatIssues(result.error.issues, jsonSchema) };
    },
  };
}

/** Validates with the zod schema `schema()` gives (called at each parse: a getter may build it once). */
function zodParse(schema: () => Zod4Schema, jsonSchema: Record<string, unknown>): CompiledSchema['parse'] {
  return (value) => {
    const result = z4.safeParse(schema(), value);
    return result.success ? { ok: true, value: result.data } : { ok: false, issues: formatIssues(result.error.issues, jsonSchema) };
  };
}

/**
 * A built-in tool's input schema as `defineTool` takes it, given by its JSON Schema written out
 * and the zod schema that validates its input, built at the first call rather than with the tool:
 * a process's first agent then neither builds the zod schema nor converts it (bench/README,
 * thirty-seventh round), and an agent whose model never calls the tool never builds it.
 * `jsonSchema` must be what {@link zod4ToJsonSchema} makes of `build()`, key order included
 * (test/tools/builtin/precompiled-input-schemas.test.ts holds each built-in's so).
 * @returns a stand-in for the zod schema, to pass as `inputSchema` (typed as that schema, for its input type).
 * @internal
 */
export function precompiledInputSchema<S extends Zod4Schema>(jsonSchema: Record<string, unknown>, build: () => S): S {
  let schema: S | undefined;
  const standIn = {};
  markToolJsonSchemaChecked(jsonSchema);
  compiled.set(standIn, { jsonSchema, parse: zodParse(() => (schema ??= build()), jsonSchema) });
  return standIn as S;
}

function tryFromJsonSchema(jsonSchema: Record<string, unknown>): Zod4Schema | undefined {
  try {
    return fromJSONSchema(jsonSchema as never) as unknown as Zod4Schema;
  } catch {
    // A schema zod cannot express is still sent to the model; input is then only checked to be an object.
    return undefined;
  }
}
