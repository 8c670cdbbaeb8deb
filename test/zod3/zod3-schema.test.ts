import { describe, expect, expectTypeOf, it } from 'vitest';
import { z as z3 } from 'zod/v3';
import { z as z4 } from 'zod/v4';
import { ConfigurationError, createAgent, extractJson } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import { zod3Schema } from 'agent-harness/zod3';

describe('zod3Schema', () => {
  it('pairs a zod 3 schema with its JSON Schema (draft 7, inline, no $schema), once per schema', () => {
    const schema = z3.object({ query: z3.string().min(1), kind: z3.enum(['a', 'b']).optional(), limit: z3.number().int().default(5) });
    const wrapped = zod3Schema(schema);
    expect(wrapped.zod3).toBe(schema);
    expect(wrapped.jsonSchema).toEqual({
      type: 'object',
      properties: { query: { type: 'string', minLength: 1 }, kind: { type: 'string', enum: ['a', 'b'] }, limit: { type: 'integer', default: 5 } },
      required: ['query'],
      additionalProperties: false,
    });
    expect(zod3Schema(schema)).toBe(wrapped);
    expectTypeOf(wrapped.zod3._output).toEqualTypeOf<{ query: string; kind?: 'a' | 'b' | undefined; limit: number }>();
  });

  it('refuses a zod 4 schema (pass it as it is) and anything else, naming what it got', () => {
    expect(() => zod3Schema(z4.object({ a: z4.string() }) as never)).toThrow(/this one is zod 4: pass it as it is/);
    expect(() => zod3Schema({ type: 'object' } as never)).toThrow(ConfigurationError);
    expect(() => zod3Schema({ type: 'object' } as never)).toThrow(/takes a zod 3 schema, got .*type.*object.*JSON Schema object is passed as it is/);
    expect(() => zod3Schema(undefined as never)).toThrow(/got undefined/);
  });
});

describe('zod 3 schemas where the model is shown the shape', () => {
  it('a run with a wrapped zod 3 outputSchema gives a typed, validated output', async () => {
    const model = scriptedModel(['{"title":"Plan","steps":2}']);
    const agent = createAgent({ model });
    const outputSchema = zod3Schema(z3.object({ title: z3.string(), steps: z3.number().int() }));
    const result = await agent.run('Plan it.', { outputSchema, outputMode: 'text' }).result;
    expect(result.status).toBe('completed');
    expect(result.output).toEqual({ title: 'Plan', steps: 2 });
    expectTypeOf(result.output).toEqualTypeOf<{ title: string; steps: number } | undefined>();
  });

  it('a bare zod 3 outputSchema is refused before any model call, with the fix in the message', async () => {
    const model = scriptedModel(['{}']);
    const agent = createAgent({ model });
    expect(() => agent.run('Plan it.', { outputSchema: z3.object({ title: z3.string() }) as never })).toThrow(/run\(\): `outputSchema` is a zod 3 schema.*agent-harness\/zod3/);
    expect(model.requests).toHaveLength(0);
  });

  it('extractJson validates with a bare zod 3 schema (no JSON Schema needed there)', () => {
    const found = extractJson('Here: {"a":"x"}', { schema: z3.object({ a: z3.string() }) });
    expect(found).toMatchObject({ ok: true, value: { a: 'x' } });
  });
});
