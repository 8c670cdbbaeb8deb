import { describe, expect, it } from 'vitest';
import { isJsonPrefix } from '../../src/plan/is-json-prefix.js';

describe('isJsonPrefix', () => {
  it.each([
    '{"goal": "x", "steps": [',
    '{"goal": "unfinished str',
    '{"a": 1, "b": tr',
    '{"a": -1.5e',
    '[1, 2, {"k"',
    '{"a": "\\u00',
    '{',
  ])('accepts the cut-off JSON %j', (text) => {
    expect(isJsonPrefix(text, 0).prefix).toBe(true);
  });

  it.each([
    '{ but then:\n{"goal": "x"}',
    '[see below',
    '{" char matters.\n{"goal"',
    '{"a": 1} trailing',
    "{'a': 1",
    '{"a": tru }',
    '[1 2',
  ])('turns down %j', (text) => {
    expect(isJsonPrefix(text, 0).prefix).toBe(false);
  });

  it('gives up on prose within a few characters', () => {
    expect(isJsonPrefix(`{ but ${'x'.repeat(10_000)}`, 0).read).toBeLessThan(5);
  });
});
