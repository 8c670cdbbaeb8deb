import * as z4 from 'zod/v4/core';

/**
 * A zod 4 schema as JSON Schema, as faithful to what the schema accepts as zod-to-json-schema is
 * for zod 3: an integer keeps only the bounds its author set (zod 4 writes the safe-integer range,
 * ±9007199254740991, into every `.int()`), and an object that strips unknown keys says so with
 * `additionalProperties: false` (zod 4 leaves it out for input). `.loose()` / `.catchall()`
 * objects and records keep their own `additionalProperties`.
 * @param io - `input` for what a tool accepts, `output` for what a value must look like once parsed.
 * @throws whatever zod's converter throws for an unrepresentable schema.
 */
export function zod4ToJsonSchema(schema: z4.$ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const jsonSchema = z4.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override({ zodSchema, jsonSchema: node }) {
      const def = (zodSchema as z4.$ZodType)._zod.def as { type?: string; catchall?: unknown };
      if (def.type === 'object' && def.catchall === undefined && node.additionalProperties === undefined) node.additionalProperties = false;
      if (node.type === 'integer') {
        if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
        if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
      }
    },
  }) as Record<string, unknown>;
  const { $schema: _ignored, ...rest } = jsonSchema;
  return rest;
}
