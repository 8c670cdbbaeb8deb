import { zodToJsonSchema } from 'zod-to-json-schema';
import { ConfigurationError } from '../errors/configuration-error.js';
import { describeOptionValue } from '../errors/describe-option-value.js';
import { isZod3, type Zod3Schema, type Zod3WithJsonSchema } from '../tools/zod3-with-json-schema.js';

/** Each schema is converted once: tools made per agent from one schema wrap it again and again. */
const converted = new WeakMap<Zod3Schema, Zod3WithJsonSchema>();

/**
 * A zod 3 schema with its JSON Schema (by `zod-to-json-schema`, draft 7 with every definition
 * inline), for `defineTool({ inputSchema })`, `run(prompt, { outputSchema })`, `requestPlan` and
 * `extractJson`. The core takes zod 4 schemas directly; zod 3 ones go through here so a host on
 * zod 4 never loads the converter.
 * @param schema - A zod 3 schema: from zod 3's `z`, or `zod/v3` of the zod 4 package.
 * @returns The schema and its JSON Schema (a frozen pair); the same pair for the same schema.
 * @throws ConfigurationError when `schema` is not a zod 3 schema (a zod 4 one is passed as it is).
 * @example
 * import { z } from 'zod'; // zod 3
 * import { zod3Schema } from 'agent-harness/zod3';
 * const search = defineTool({ name: 'search', description: 'Searches.', inputSchema: zod3Schema(z.object({ query: z.string() })), execute: ({ input }) => input.query });
 */
export function zod3Schema<S extends Zod3Schema>(schema: S): Zod3WithJsonSchema<S> {
  if (!isZod3(schema)) {
    const zod4 = typeof schema === 'object' && schema !== null && '_zod' in schema;
    throw new ConfigurationError(
      zod4
        ? 'zod3Schema() takes a zod 3 schema, and this one is zod 4: pass it as it is (defineTool({ inputSchema: schema })), no wrapping needed.'
        : `zod3Schema() takes a zod 3 schema, got ${describeOptionValue(schema)}. A plain JSON Schema object is passed as it is.`,
    );
  }
  const known = converted.get(schema);
  if (known) return known as Zod3WithJsonSchema<S>;
  let converted7: Record<string, unknown>;
  try {
    converted7 = zodToJsonSchema(schema as never, { target: 'jsonSchema7', $refStrategy: 'none' }) as Record<string, unknown>;
  } catch (cause) {
    throw new ConfigurationError(`zod3Schema(): the schema cannot be converted to JSON Schema (${String(cause)}). Use JSON-representable types.`, { cause });
  }
  const { $schema: _dialect, ...jsonSchema } = converted7;
  const result = Object.freeze({ zod3: schema, jsonSchema });
  converted.set(schema, result);
  return result;
}
