/**
 * Zod 4 schemas reach the model as faithfully as zod 3 ones: the same shape built with both majors
 * (zod 4 ships zod 3 as `zod/v3`) gives the same JSON Schema for a tool's input.
 */
import { describe, expect, it } from 'vitest';
import { z as z3 } from 'zod/v3';
import { z as z4 } from 'zod/v4';
import * as z4mini from 'zod/v4-mini';
import { zod3Schema } from 'agent-harness/zod3';
import { defineTool } from '../../src/tools/define-tool.js';
import { schemaToJsonSchema } from '../../src/plan/value-schema.js';

/** A zod 3 schema goes through `zod3Schema` (agent-harness/zod3), a zod 4 one as it is. */
const jsonOf = (inputSchema: object) =>
  defineTool({ name: 't', description: '', inputSchema: ('_zod' in inputSchema ? inputSchema : zod3Schema(inputSchema as never)) as never, execute: () => '' }).jsonSchema;

/** The same shapes in each major. */
const shapes: Array<[string, object, object]> = [
  ['an integer', z3.object({ n: z3.number().int() }), z4.object({ n: z4.number().int() })],
  ['z.int()', z3.object({ n: z3.number().int() }), z4.object({ n: z4.int() })],
  ['a bounded integer', z3.object({ n: z3.number().int().min(1).max(5) }), z4.object({ n: z4.number().int().min(1).max(5) })],
  ['a positive integer', z3.object({ n: z3.number().int().positive() }), z4.object({ n: z4.number().int().positive() })],
  ['a nested object', z3.object({ a: z3.object({ b: z3.string() }) }), z4.object({ a: z4.object({ b: z4.string() }) })],
  ['an array of objects', z3.object({ list: z3.array(z3.object({ x: z3.boolean() })) }), z4.object({ list: z4.array(z4.object({ x: z4.boolean() })) })],
  ['an optional field', z3.object({ a: z3.string().optional() }), z4.object({ a: z4.string().optional() })],
  ['a strict object', z3.object({ a: z3.string() }).strict(), z4.strictObject({ a: z4.string() })],
  ['a described number', z3.object({ n: z3.number().describe('how many') }), z4.object({ n: z4.number().describe('how many') })],
];

describe('tool input schemas from zod 3 and zod 4', () => {
  it.each(shapes)('%s: the same JSON Schema', (_name, zod3, zod4) => {
    expect(jsonOf(zod4)).toEqual(jsonOf(zod3));
  });

  it('an integer carries no invented bounds (no ±9007199254740991)', () => {
    const json = jsonOf(z4.object({ n: z4.number().int(), m: z4.int().nonnegative(), k: z4.int().max(Number.MAX_SAFE_INTEGER - 1) }));
    expect(JSON.stringify(json)).not.toContain('9007199254740991');
    expect(json.properties).toEqual({ n: { type: 'integer' }, m: { type: 'integer', minimum: 0 }, k: { type: 'integer', maximum: Number.MAX_SAFE_INTEGER - 1 } });
  });

  it('keeps bounds of narrower integer types (int32)', () => {
    expect(jsonOf(z4.object({ n: z4.int32() })).properties).toEqual({ n: { type: 'integer', minimum: -2147483648, maximum: 2147483647 } });
  });

  it('objects that strip unknown keys say additionalProperties: false, at every depth, in zod 4 classic and mini', () => {
    for (const schema of [z4.object({ a: z4.object({ b: z4.string() }) }), z4mini.object({ a: z4mini.object({ b: z4mini.string() }) })]) {
      const json = jsonOf(schema) as { additionalProperties?: unknown; properties: { a: { additionalProperties?: unknown } } };
      expect(json.additionalProperties).toBe(false);
      expect(json.properties.a.additionalProperties).toBe(false);
    }
  });

  it('loose objects, catchalls and records keep their own additionalProperties', () => {
    const json = jsonOf(z4.object({ loose: z4.looseObject({ a: z4.string() }), rest: z4.object({}).catchall(z4.number()), map: z4.record(z4.string(), z4.boolean()) })) as {
      properties: Record<string, { additionalProperties?: unknown }>;
    };
    expect(json.properties.loose!.additionalProperties).toEqual({});
    expect(json.properties.rest!.additionalProperties).toEqual({ type: 'number' });
    expect(json.properties.map!.additionalProperties).toEqual({ type: 'boolean' });
  });

  it('the plan prompt shows a zod 4 schema without invented integer bounds too', () => {
    const json = schemaToJsonSchema(z4.object({ count: z4.number().int() }));
    expect(JSON.stringify(json)).not.toContain('9007199254740991');
    expect(json).toMatchObject({ type: 'object', additionalProperties: false, properties: { count: { type: 'integer' } } });
  });

  it('validation is unchanged: zod still rejects what the schema rejects', () => {
    const tool = defineTool({ name: 't', description: '', inputSchema: z4.object({ n: z4.number().int() }), execute: () => '' });
    expect(tool.parseInput({ n: 1.5 }).ok).toBe(false);
    expect(tool.parseInput({ n: 2 ** 60 }).ok).toBe(false); // zod 4's own safe-integer check still holds
    expect(tool.parseInput({ n: 3, extra: true })).toEqual({ ok: true, value: { n: 3 } });
  });
});
