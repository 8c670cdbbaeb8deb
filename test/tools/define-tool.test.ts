import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { ConfigurationError, defineTool, toolOutput } from 'agent-harness';
import { zod3Schema } from 'agent-harness/zod3';

describe('defineTool', () => {
  it('converts a zod 4 schema to JSON Schema once, infers the input type, and validates with field names', () => {
    const tool = defineTool({
      name: 'add_event',
      description: 'Adds an event.',
      inputSchema: z.object({ title: z.string().describe('What'), day: z.number().int().min(1), tags: z.array(z.string()).optional() }),
      execute: ({ input }) => {
        expectTypeOf(input).toEqualTypeOf<{ title: string; day: number; tags?: string[] | undefined }>();
        return input.title;
      },
    });
    expect(tool.jsonSchema).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string', description: 'What' }, day: { type: 'integer', minimum: 1 } },
      required: ['title', 'day'],
    });
    expect(tool.jsonSchema).not.toHaveProperty('$schema');
    expect(tool.parseInput({ title: 'x', day: 2 })).toEqual({ ok: true, value: { title: 'x', day: 2 } });
    const bad = tool.parseInput({ title: 3, day: 0 });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.issues.join('\n')).toMatch(/^title: .*\nday: /);
    expect(tool.readOnly).toBe(false);
    expect(tool.concurrencySafe).toBe(false);
    expect(tool.kind).toBe('other');
  });

  it('accepts zod 3 schemas wrapped by zod3Schema (agent-harness/zod3), typed and validated by zod 3', () => {
    const tool = defineTool({ name: 'legacy', description: 'Old schema.', inputSchema: zod3Schema(z3.object({ count: z3.number() })), readOnly: true, execute: ({ input }) => String(input.count satisfies number) });
    expect(tool.jsonSchema).toMatchObject({ type: 'object', properties: { count: { type: 'number' } }, required: ['count'] });
    expect(tool.parseInput({ count: 'x' })).toMatchObject({ ok: false, issues: [expect.stringMatching(/^count: /)] });
    expect(tool.concurrencySafe).toBe(true);
    expect(tool.kind).toBe('read');
  });

  it('refuses a bare zod 3 schema, naming the tool and the wrapper that takes it', () => {
    const bare = z3.object({ count: z3.number() });
    expect(() => defineTool({ name: 'legacy', description: 'Old schema.', inputSchema: bare as never, execute: () => 'ok' })).toThrow(ConfigurationError);
    expect(() => defineTool({ name: 'legacy', description: 'Old schema.', inputSchema: bare as never, execute: () => 'ok' })).toThrow(
      /Tool "legacy": its inputSchema is a zod 3 schema.*import \{ zod3Schema \} from 'agent-harness\/zod3'.*zod3Schema\(schema\).*zod\/v4/,
    );
  });

  it('gives each tool its own copy of a shared zod 3 JSON Schema', () => {
    const wrapped = zod3Schema(z3.object({ count: z3.number() }));
    const first = defineTool({ name: 'one', description: 'One.', inputSchema: wrapped, execute: () => 'ok' });
    expect(first.jsonSchema).toEqual(wrapped.jsonSchema);
    expect(first.jsonSchema).not.toBe(wrapped.jsonSchema);
    expect(Object.isFrozen(wrapped)).toBe(true);
  });

  it('accepts a plain JSON Schema object and validates against it', () => {
    const schema = { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } as const;
    const tool = defineTool({ name: 'fetch_page', description: 'Fetches.', inputSchema: { ...schema }, execute: () => 'ok' });
    expect(tool.jsonSchema).toEqual(schema);
    expect(tool.parseInput({ url: 'https://example.org' }).ok).toBe(true);
    expect(tool.parseInput({})).toMatchObject({ ok: false });
    expect(tool.parseInput('nope')).toEqual({ ok: false, issues: ['Input must be a JSON object.'] });
  });

  it('refuses bad definitions with errors that name the value and the fix', () => {
    expect(() => defineTool({ name: 'has space', description: '', inputSchema: z.object({}), execute: () => '' })).toThrow('defineTool (tool "has space"): `name` must be 1-64 letters, digits, "_" or "-" (the Messages API\'s rule for tool names), got the string "has space".');
    expect(() => defineTool({ name: 'scalar', description: '', inputSchema: z.string() as never, execute: () => '' })).toThrow(/object schema.*z\.object/);
    expect(() => defineTool({ name: 'slow', description: '', inputSchema: z.object({}), timeoutMs: 0, execute: () => '' })).toThrow(ConfigurationError);
    // Past a timer's limit Node fires the timer after 1 ms: every call would time out at once.
    expect(() => defineTool({ name: 'slow', description: '', inputSchema: z.object({}), timeoutMs: 2_147_483_648, execute: () => '' })).toThrow(
      'defineTool (tool "slow"): `timeoutMs` must be a positive number of milliseconds, at most 2147483647 (about 24.8 days: a timer fires at once past it), got 2147483648.',
    );
    expect(defineTool({ name: 'slow', description: '', inputSchema: z.object({}), timeoutMs: 2_147_483_647, execute: () => '' }).timeoutMs).toBe(2_147_483_647);
  });

  it('compiles one schema object once, however many tools use it', () => {
    const schema = z.object({ a: z.string() });
    const first = defineTool({ name: 'one', description: '', inputSchema: schema, execute: () => '' });
    const second = defineTool({ name: 'two', description: '', inputSchema: schema, execute: () => '' });
    expect(second.jsonSchema).toBe(first.jsonSchema);
  });

  it('toolOutput marks an error result without throwing', () => {
    expect(toolOutput('not found', { isError: true })).toEqual({ type: 'tool-output', content: 'not found', isError: true });
  });
});
