import { describe, expect, it } from 'vitest';
import { createMcpTool } from '../../src/mcp/mcp-tool.js';
import { ConfigurationError } from '../../src/errors/configuration-error.js';

/** A schema value whose key listings are counted: each walk of the schema lists them once. */
function counted<T extends object>(value: T, counter: { walks: number }): T {
  return new Proxy(value, {
    ownKeys(target) {
      counter.walks++;
      return Reflect.ownKeys(target);
    },
  });
}

const make = (inputSchema: Record<string, unknown>) =>
  createMcpTool({ name: 'mcp__notes__find', server: 'notes', info: { name: 'find', inputSchema: inputSchema as never }, deferLoading: false, call: async () => ({ content: [] }) });

describe("an MCP tool's input schema", () => {
  it('is walked by the MCP checks only, not again by defineTool (a listing of a hundred tools per agent paid twice)', () => {
    const counter = { walks: 0 };
    const properties = counted({ query: { type: 'string' } }, counter);
    make({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties });
    // The bounds check, the JSON Schema check and the fingerprint list `properties` once each
    // (defineTool's own checks listed it twice more).
    expect(counter.walks).toBe(3);
  });

  it('is still refused as an object schema is required, and when it breaks JSON Schema', () => {
    expect(() => make({ type: 'string' })).toThrow(ConfigurationError);
    expect(() => make({ type: 'object', properties: { query: { type: 'text' } } })).toThrow(/not valid JSON Schema 2020-12/);
    expect(() => make({ type: 'object', properties: { query: { type: 'string' } } })).not.toThrow();
  });
});
