import { describe, expect, it } from 'vitest';
import { storedEntryId } from '../../src/session/stored-entry-id.js';

describe('storedEntryId', () => {
  it('reads the id from the beginning of an entry written as the library writes one, without parsing the rest', () => {
    // The rest is no JSON: only the beginning was read.
    expect(storedEntryId('{"$schemaVersion":2,"id":"abc-123_x","parentId":null, not JSON')).toBe('abc-123_x');
    expect(storedEntryId('{"$schemaVersion":17,"id":"","seq":1}')).toBe('');
    expect(storedEntryId('{"$schemaVersion":2,"id":"ünïcödé ✓","seq":1}')).toBe('ünïcödé ✓');
  });

  it('parses any other text: escapes in the id, another order of keys, an id that is no string, no id', () => {
    for (const id of ['with "quotes"', 'back\\slash', 'new\nline', '\ud800 lone surrogate']) {
      const text = JSON.stringify({ $schemaVersion: 2, id, seq: 1 });
      expect(storedEntryId(text)).toBe(id);
    }
    expect(storedEntryId(JSON.stringify({ id: 'first', $schemaVersion: 2 }))).toBe('first');
    expect(storedEntryId(JSON.stringify({ $schemaVersion: 2, seq: 1, id: 'later' }))).toBe('later');
    expect(storedEntryId(JSON.stringify({ $schemaVersion: 2, id: 42 }))).toBe(42);
    expect(storedEntryId(JSON.stringify({ $schemaVersion: 2 }))).toBeUndefined();
    expect(storedEntryId('null')).toBeUndefined();
  });

  it('throws the SyntaxError of a text that must be parsed and is no JSON', () => {
    expect(() => storedEntryId('{"$schemaVersion":2,"id":"a\\"b", torn')).toThrow(SyntaxError);
  });
});
