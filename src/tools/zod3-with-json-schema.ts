import { ConfigurationError } from '../errors/configuration-error.js';

/** The parts of a zod 3 schema this library uses. */
export interface Zod3Schema {
  readonly _def: unknown;
  readonly _output: unknown;
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: Array<{ path: (string | number)[]; message: string }> } };
}

/**
 * A zod 3 schema with its JSON Schema, made by `zod3Schema(schema)` from `agent-harness/zod3`:
 * what `defineTool({ inputSchema })`, `run(prompt, { outputSchema })` and the plan helpers take
 * for a zod 3 schema. The core carries no zod 3 converter, so a host on zod 4 does not load one.
 */
export interface Zod3WithJsonSchema<S extends Zod3Schema = Zod3Schema> {
  /** The zod 3 schema: it validates. */
  readonly zod3: S;
  /** Its JSON Schema (draft 7, no `$ref`s, no `$schema`): what the model is shown. */
  readonly jsonSchema: Readonly<Record<string, unknown>>;
}

/**
 * True for a zod 3 schema (zod 3's own `z`, or `zod/v3` of the zod 4 package); not for a zod 4
 * classic schema, which has a `_def` and a `safeParse` too, and a `_zod`.
 */
export function isZod3(schema: unknown): schema is Zod3Schema {
  return typeof schema === 'object' && schema !== null && '_def' in schema && !('_zod' in schema) && typeof (schema as Zod3Schema).safeParse === 'function';
}

/** True for what `zod3Schema(schema)` returns. */
export function isZod3WithJsonSchema(schema: unknown): schema is Zod3WithJsonSchema {
  if (typeof schema !== 'object' || schema === null) return false;
  const { zod3, jsonSchema } = schema as Partial<Zod3WithJsonSchema>;
  return isZod3(zod3) && typeof jsonSchema === 'object' && jsonSchema !== null;
}

/**
 * The error for a bare zod 3 schema where its JSON Schema is needed.
 * @param where - What was given it, e.g. `Tool "search": its inputSchema` or `run(): \`outputSchema\``.
 */
export function zod3ConverterMissing(where: string): ConfigurationError {
  return new ConfigurationError(
    `${where} is a zod 3 schema; its JSON Schema comes from the zod 3 converter, which is not part of the core (a host on zod 4 would load it for nothing). Wrap it: import { zod3Schema } from 'agent-harness/zod3' and pass zod3Schema(schema); or write it with zod 4 (import { z } from 'zod/v4', in zod from 3.25).`,
  );
}
