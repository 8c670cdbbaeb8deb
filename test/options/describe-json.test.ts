import { describe, expect, it } from 'vitest';
import { describeJson } from '../../src/options/describe-json.js';

describe('describeJson', () => {
  const cyclic: Record<string, unknown> = { behavior: 'maybe' };
  cyclic.self = cyclic;
  it.each<[string, unknown, string | RegExp]>([
    ['an object', { behavior: 'maybe' }, '{"behavior":"maybe"}'],
    ['a string', 'always', '"always"'],
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['a function', () => 1, 'a function'],
    ['a bigint', 1n, 'the bigint 1'],
    ['a cyclic object', cyclic, /^\{"behavior":"maybe","self":/],
    ['an object whose toJSON throws', { toJSON: () => { throw new Error('no'); } }, /^\{/],
    ['Object.create(null)', Object.create(null), '{}'],
  ])('%s', (_name, value, expected) => {
    if (typeof expected === 'string') expect(describeJson(value)).toBe(expected);
    else expect(describeJson(value)).toMatch(expected);
  });
});
