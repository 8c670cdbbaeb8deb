// A host tool's raw JSON Schema goes into every request: one the Messages API refuses fails the
// whole session. It is checked where the tool is made (defineTool) or handed over (createAgent),
// with the check MCP tools get.
import { describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, defineTool, type Tool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const define = (inputSchema: Record<string, unknown>, name = 'lookup') => defineTool({ name, description: 'Looks a thing up.', inputSchema, execute: () => 'found' });

function refusal(make: () => unknown): ConfigurationError {
  let caught: unknown;
  try {
    make();
  } catch (error) {
    caught = error;
  }
  expect(ConfigurationError.isInstance(caught), `expected a ConfigurationError, got ${String(caught)}`).toBe(true);
  return caught as ConfigurationError;
}

describe('defineTool with a raw JSON Schema the Messages API would refuse', () => {
  it.each<[string, Record<string, unknown>, RegExp]>([
    ['properties that is not a mapping', { type: 'object', properties: 5 }, /at properties: 5 is not a mapping of names to schemas/],
    ['a property type that is not a JSON type', { type: 'object', properties: { query: { type: 'strin' } } }, /at properties\.query\.type: "strin" is not a JSON type/],
    ['a $ref to a definition that is not there', { type: 'object', properties: { query: { $ref: '#/$defs/missing' } } }, /at properties\.query\.\$ref: "#\/\$defs\/missing" points to nothing in the schema/],
    ['a $ref to an anchor that is not there', { type: 'object', properties: { query: { $ref: '#nowhere' } } }, /at properties\.query\.\$ref: "#nowhere" points to nothing in the schema/],
    ['required: true inside a property (draft 3)', { type: 'object', properties: { query: { type: 'string', required: true } } }, /at properties\.query\.required: true is not a list of distinct property names/],
    ['tuple items (draft 7)', { type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }] } } }, /at properties\.pair\.items: .* is not a schema/],
  ])('%s: a ConfigurationError naming the tool, the keyword and the fix', (_what, schema, detail) => {
    const error = refusal(() => define(schema));
    expect(error.message).toMatch(/^Tool "lookup": its input schema is not valid JSON Schema 2020-12 \(/);
    expect(error.message).toMatch(detail);
    expect(error.message).toMatch(/the Messages API would refuse every request that carries it\. Fix that keyword, or describe the input with zod \(z\.object\(\{ \.\.\. \}\)\)\.$/);
  });

  it('oneOf, anyOf or allOf at the top level (which the Messages API refuses in an input_schema): a ConfigurationError naming the keyword and the fix; nested ones are fine', () => {
    for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
      const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, [keyword]: [{ required: ['a'] }, { required: ['b'] }] };
      const error = refusal(() => define(schema));
      expect(error.message).toMatch(new RegExp(`^Tool "lookup": its input schema has ${keyword} at the top level, which the Messages API refuses in a tool's input schema`));
      expect(error.message).toMatch(/check the alternatives in validateInput/);
    }
    expect(() => define({ type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'number' }] } } })).not.toThrow();
  });

  it('a schema with a cycle, or nested past 64 levels, is refused without exhausting the stack', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(refusal(() => define(cyclic)).message).toMatch(/^Tool "lookup": its input schema is not plain JSON \(it refers to itself\)/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 5_000; level++) deep = { type: 'object', properties: { inner: deep } };
    expect(refusal(() => define(deep)).message).toMatch(/^Tool "lookup": its input schema is nested deeper than 64 levels/);
  });

  it('accepts valid schemas: references that resolve (pointer, escaped pointer, root, anchor), unknown keywords', () => {
    const schemas: Record<string, unknown>[] = [
      { type: 'object', properties: { query: { $ref: '#/$defs/query' } }, $defs: { query: { type: 'string' } } },
      { type: 'object', properties: { 'a/b~c': { type: 'string' }, copy: { $ref: '#/properties/a~1b~0c' } } },
      { type: 'object', properties: { child: { $ref: '#' } } },
      { type: 'object', properties: { query: { $ref: '#text' } }, $defs: { text: { $anchor: 'text', type: 'string' } } },
      { type: 'object', properties: { list: { type: 'array', items: { $ref: '#/$defs/list/items' } } }, $defs: { list: { type: 'array', items: { type: 'integer' } } } },
      { type: 'object', properties: { first: { $ref: '#/properties/pair/prefixItems/0' }, pair: { type: 'array', prefixItems: [{ type: 'string' }] } } },
      { type: 'object', 'x-vendor': { anything: [1] }, properties: { a: { type: ['string', 'null'], examples: [{ type: 'nonsense' }] } } },
    ];
    for (const schema of schemas) expect(define(schema).jsonSchema).toEqual(schema);
  });
});

describe('createAgent with a host tool whose JSON Schema the Messages API would refuse', () => {
  it('refuses a tool object not made by defineTool, naming it, before any request', () => {
    const good = define({ type: 'object', properties: { query: { type: 'string' } } });
    const handMade: Tool = { ...good, name: 'hand_made', jsonSchema: { type: 'object', properties: { query: { $ref: '#/definitions/query' } } } };
    const model = scriptedModel(['never sent']);
    const error = refusal(() => createAgent({ model, tools: [good, handMade] }));
    expect(error.message).toMatch(/^Tool "hand_made": its input schema is not valid JSON Schema 2020-12 \(at properties\.query\.\$ref: "#\/definitions\/query" points to nothing in the schema\)/);
    expect(model.requests).toHaveLength(0);
  });

  it('runs a tool whose schema holds references that resolve', async () => {
    const tool = define({ type: 'object', properties: { query: { $ref: '#/$defs/query' } }, required: ['query'], $defs: { query: { type: 'string' } } });
    const model = scriptedModel([turn(toolCall('lookup', { query: 'otters' })), 'Done.']);
    const agent = createAgent({ model, tools: [tool], canUseTool: () => ({ behavior: 'allow' }) });
    expect((await agent.run('go').result).status).toBe('completed');
  });
});
