import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { PlanSchema, TodoListSchema, TodoSchema } from 'agent-harness';
import { schemaBuiltOnFirstUse } from '../../src/tools/schema-built-on-first-use.js';

const eagerTodo = () =>
  z.object({
    content: z.string().min(1).describe('What is to be done, imperative: "Draft the introduction".'),
    status: z.enum(['pending', 'in_progress', 'completed']).describe('pending, in_progress or completed.'),
    activeForm: z.string().min(1).describe('Present continuous, shown while in progress: "Drafting the introduction".'),
  });

describe('schemaBuiltOnFirstUse', () => {
  it('builds the schema on the first read only, once', () => {
    let builds = 0;
    const schema = schemaBuiltOnFirstUse(() => (builds++, eagerTodo()));
    expect(builds).toBe(0);
    expect(schema.parse({ content: 'a', status: 'pending', activeForm: 'b' })).toEqual({ content: 'a', status: 'pending', activeForm: 'b' });
    expect(schema.safeParse({ content: '', status: 'x', activeForm: 'b' }).success).toBe(false);
    expect(builds).toBe(1);
    expect(schema.parse === schema.parse).toBe(true);
    expect(builds).toBe(1);
  });

  it('is the built schema to zod and to the host: instanceof, in, keys, JSON Schema, nesting, extend', () => {
    const lazy = schemaBuiltOnFirstUse(eagerTodo);
    const eager = eagerTodo();
    expect(lazy instanceof z.ZodObject).toBe(true);
    expect('_zod' in lazy).toBe(true);
    expect(Object.keys(lazy)).toEqual(Object.keys(eager));
    expect(z.toJSONSchema(lazy)).toEqual(z.toJSONSchema(eager));
    expect(z.toJSONSchema(z.object({ todos: z.array(lazy) }))).toEqual(z.toJSONSchema(z.object({ todos: z.array(eager) })));
    const list = z.array(lazy);
    expect(list.safeParse([{ content: 'a', status: 'done', activeForm: 'b' }]).success).toBe(false);
    const extended = lazy.extend({ owner: z.string() });
    expect(extended.parse({ content: 'a', status: 'pending', activeForm: 'b', owner: 'me' })).toMatchObject({ owner: 'me' });
    expect(Object.keys(lazy.shape)).toEqual(['content', 'status', 'activeForm']);
  });

  it('refuses to be changed', () => {
    const lazy = schemaBuiltOnFirstUse(eagerTodo) as unknown as Record<string, unknown>;
    expect(() => {
      'use strict';
      lazy.parse = () => 'forged';
    }).toThrow(TypeError);
    expect(() => delete lazy.parse).toThrow(TypeError);
  });

  it('the exported PlanSchema, TodoSchema and TodoListSchema validate as before', () => {
    expect(TodoListSchema.safeParse({ todos: [{ content: 'Draft', status: 'pending', activeForm: 'Drafting' }] }).success).toBe(true);
    expect(TodoListSchema.safeParse({ todos: [{ content: '', status: 'pending', activeForm: 'Drafting' }] }).success).toBe(false);
    expect(TodoSchema instanceof z.ZodObject).toBe(true);
    const plan = { goal: 'A short article', outline: ['Intro'], steps: [{ title: 'Draft the intro' }], risks: [] };
    expect(PlanSchema.parse(plan)).toEqual(plan);
    expect(PlanSchema.safeParse({ ...plan, steps: [{ title: '   ' }] }).success).toBe(false);
    expect(z.toJSONSchema(PlanSchema)).toMatchObject({ type: 'object', required: ['goal', 'outline', 'steps', 'risks'] });
  });
});
