import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import * as z3 from 'zod/v3';
import { zod3Schema } from 'agent-harness/zod3';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { describeValue, formatIssuePath, schemaToJsonSchema, validateWithSchema } from '../../src/plan/value-schema.js';

describe('validateWithSchema', () => {
  it('validates with zod 4 and phrases issues by field', () => {
    const schema = z.object({ items: z.array(z.object({ kind: z.enum(['a', 'b']) })) });
    expect(validateWithSchema(schema, { items: [{ kind: 'a' }] })).toEqual({ ok: true, value: { items: [{ kind: 'a' }] } });
    expect(validateWithSchema(schema, { items: [{ kind: 'c' }] })).toEqual({ ok: false, issues: ['items[0].kind: must be one of "a", "b", got "c"'] });
  });

  it('validates with zod 3, bare or wrapped by zod3Schema', () => {
    const bare = z3.object({ name: z3.string() });
    for (const schema of [bare, zod3Schema(bare)]) {
      expect(validateWithSchema(schema, { name: 'x' })).toEqual({ ok: true, value: { name: 'x' } });
      const result = validateWithSchema(schema, {});
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.issues[0]).toMatch(/^name: /);
    }
  });

  it('refuses asynchronous Standard Schema validators with a clear error', () => {
    const schema = { '~standard': { version: 1 as const, vendor: 'x', validate: async (value: unknown) => ({ value }) } };
    expect(() => validateWithSchema(schema, 1)).toThrow(ConfigurationError);
  });
});

describe('describeValue', () => {
  it('never throws: deep nesting, cycles and throwing toJSON get a short description', () => {
    let deep: unknown = [];
    for (let index = 0; index < 100_000; index++) deep = [deep];
    expect(describeValue(deep)).toBe(`${'['.repeat(57)}...`);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeValue(cyclic)).toMatch(/^\{"self":\{"self":.*\.\.\.$/);
    expect(describeValue({ toJSON: () => { throw new Error('no'); } })).toBe('an object');
    expect(describeValue(10n)).toBe('10');
    expect(describeValue('x'.repeat(100))).toHaveLength(60);
    expect(describeValue(Array.from({ length: 1_000_000 }, (_, index) => index))).toBe('[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,...');
    expect(describeValue({ a: [1, 'b', null], c: undefined, d: true })).toBe('{"a":[1,"b",null],"d":true}');
    expect(describeValue(new Date(0))).toBe('"1970-01-01T00:00:00.000Z"');
  });

  it('reports a deeply nested value that fails a schema as an issue, without throwing', () => {
    let deep: unknown = [];
    for (let index = 0; index < 100_000; index++) deep = [deep];
    expect(validateWithSchema(z.object({ goal: z.string() }), deep)).toEqual({ ok: false, issues: [`(the whole value): expected object, got ${'['.repeat(57)}...`] });
  });
});

describe('formatIssuePath', () => {
  it('writes paths the way code reads them', () => {
    expect(formatIssuePath(['steps', 0, 'title'])).toBe('steps[0].title');
    expect(formatIssuePath(['odd key', { key: 'x' }])).toBe('["odd key"].x');
    expect(formatIssuePath([])).toBe('(the whole value)');
  });
});

describe('schemaToJsonSchema', () => {
  it('converts zod 4, takes a wrapped zod 3 schema\'s, passes JSON Schema through, and has nothing for other validators', () => {
    expect(schemaToJsonSchema(z.object({ a: z.string() }))).toMatchObject({ type: 'object', required: ['a'] });
    expect(schemaToJsonSchema(zod3Schema(z3.object({ a: z3.string() })))).toMatchObject({ type: 'object', required: ['a'] });
    expect(schemaToJsonSchema({ type: 'array' })).toEqual({ type: 'array' });
    expect(schemaToJsonSchema({ '~standard': { version: 1, vendor: 'x', validate: (value: unknown) => ({ value }) } })).toBeUndefined();
  });

  it('refuses a bare zod 3 schema, whose shape the model would otherwise not be shown, naming where it was given', () => {
    expect(() => schemaToJsonSchema(z3.object({ a: z3.string() }), 'run(): `outputSchema`')).toThrow(/^run\(\): `outputSchema` is a zod 3 schema.*zod3Schema/);
  });
});
