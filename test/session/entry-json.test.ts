import { describe, expect, it } from 'vitest';
import { ConfigurationError } from 'agent-harness';
import { entryJson } from '../../src/session/entry-json.js';
import { thrownBy } from '../helpers.js';

describe('entryJson', () => {
  it('writes an entry that is an object as its JSON, a toJSON that returns an object included', () => {
    expect(entryJson('aStore', 's', { kind: 'message', id: 'a' }, 0)).toBe('{"kind":"message","id":"a"}');
    expect(entryJson('aStore', 's', { toJSON: () => ({ id: 'b' }) }, 0)).toBe('{"id":"b"}');
  });

  it('refuses an entry that writes as no object, naming the store, the place, the session and what it writes as', () => {
    const cases: Array<[unknown, string]> = [
      [{ toJSON: () => undefined }, 'writes as nothing in JSON'],
      [{ toJSON: () => 'x' }, 'writes as "x" in JSON'],
      [{ toJSON: () => null }, 'writes as null in JSON'],
      [{ toJSON: () => [] }, 'writes as [] in JSON'],
      [{ toJSON: () => 'y'.repeat(100) }, `writes as "${'y'.repeat(39)}… in JSON`],
    ];
    for (const [value, says] of cases) {
      const thrown = thrownBy(() => entryJson('aStore', 'the "session"', value, 2));
      expect(ConfigurationError.isInstance(thrown)).toBe(true);
      expect((thrown as Error).message).toContain('aStore.append got entry 3 of session "the \\"session\\""');
      expect((thrown as Error).message).toContain(says);
    }
  });

  it('turns what JSON.stringify throws (a BigInt, a cycle) into a ConfigurationError with the TypeError as its cause', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const value of [{ n: 1n }, cyclic]) {
      const thrown = thrownBy(() => entryJson('aStore', 's', value, 0));
      expect(ConfigurationError.isInstance(thrown)).toBe(true);
      expect((thrown as Error).message).toMatch(/^aStore\.append cannot write entry 1 of session "s" as JSON \([^\n]+\): an entry holds JSON values only/);
      expect((thrown as Error & { cause?: unknown }).cause).toBeInstanceOf(TypeError);
    }
  });
});
