// The README: a tool "whose input schema breaks JSON Schema 2020-12 (which the Messages API refuses
// in every request)" is skipped (MCP) or refused by defineTool with a ConfigurationError naming the
// keyword. The meta-schema constrains more than types and subschemas: these keywords broke it and
// went through unchecked, so one such tool failed every request of the session.
import { describe, expect, it } from 'vitest';
import { ConfigurationError, defineTool } from 'agent-harness';

const define = (inputSchema: Record<string, unknown>) => defineTool({ name: 'lookup', description: 'Looks a thing up.', inputSchema, execute: () => 'found' });

function refusalOf(schema: Record<string, unknown>): string {
  try {
    define(schema);
  } catch (error) {
    expect(ConfigurationError.isInstance(error), `expected a ConfigurationError, got ${String(error)}`).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`defineTool accepted ${JSON.stringify(schema)}`);
}

describe('JSON Schema 2020-12 meta-schema keywords beyond types and subschemas', () => {
  it.each<[string, Record<string, unknown>, RegExp]>([
    ['examples that is not a list', { type: 'object', properties: { a: { type: 'string', examples: 'abc' } } }, /at properties\.a\.examples: "abc" is not a list/],
    ['$comment that is not a string', { type: 'object', $comment: 5 }, /at \$comment: 5 is not a string/],
    ['$schema (in a subschema: the root one is dropped) that is not a string', { type: 'object', properties: { a: { $schema: { draft: 7 } } } }, /at properties\.a\.\$schema: .* is not a string/],
    ['$anchor that is not an anchor name', { type: 'object', properties: { a: { $anchor: '1st', type: 'string' } } }, /at properties\.a\.\$anchor: "1st" is not an anchor name/],
    ['$dynamicAnchor with a slash', { type: 'object', $defs: { a: { $dynamicAnchor: 'a/b' } } }, /at \$defs\.a\.\$dynamicAnchor: "a\/b" is not an anchor name/],
    ['$id with a fragment', { type: 'object', $id: 'https://example.com/s#part' }, /at \$id: "https:\/\/example\.com\/s#part" has a fragment/],
    ['contentMediaType that is not a string', { type: 'object', properties: { a: { type: 'string', contentMediaType: 1 } } }, /at properties\.a\.contentMediaType: 1 is not a string/],
    ['contentSchema whose type is not a JSON type', { type: 'object', properties: { a: { type: 'string', contentSchema: { type: 'nonsense' } } } }, /at properties\.a\.contentSchema\.type: "nonsense" is not a JSON type/],
    ['dependencies (draft 7, kept by 2020-12) with a broken schema', { type: 'object', dependencies: { a: { type: 'nonsense' } } }, /at dependencies\.a\.type: "nonsense" is not a JSON type/],
    ['dependencies that is not a mapping', { type: 'object', dependencies: ['a'] }, /at dependencies: .* is not a mapping/],
    ['dependentRequired with a name twice', { type: 'object', dependentRequired: { a: ['b', 'b'] } }, /at dependentRequired: .* is not a mapping of names to lists of distinct names/],
    ['$vocabulary with a value that is not true or false', { type: 'object', $vocabulary: { 'https://json-schema.org/draft/2020-12/vocab/core': 'yes' } }, /at \$vocabulary: .* is not a mapping of vocabulary URIs to true or false/],
  ])('%s is refused, naming the path', (_what, schema, detail) => {
    const message = refusalOf(schema);
    expect(message).toMatch(/^Tool "lookup": its input schema is not valid JSON Schema 2020-12 \(/);
    expect(message).toMatch(detail);
  });

  it('valid uses of the same keywords are accepted', () => {
    const schemas: Record<string, unknown>[] = [
      { $id: 'https://example.com/s#', $comment: 'fine', type: 'object', properties: { a: { type: 'string', examples: ['x'], contentMediaType: 'application/json', contentEncoding: 'base64', contentSchema: { type: 'object' } } } },
      { type: 'object', properties: { a: { $anchor: '_a-1.b', type: 'string' }, examples: { type: 'string' } }, dependencies: { a: ['b'], b: { required: ['a'] } } },
      { type: 'object', properties: { a: { $dynamicAnchor: 'node', type: 'string' } }, $vocabulary: { 'https://json-schema.org/draft/2020-12/vocab/core': true } },
    ];
    for (const schema of schemas) expect(define(schema).jsonSchema).toEqual(schema);
  });
});
