import { describe, expect, it } from 'vitest';
import { builtOncePerKey } from '../../src/tools/built-once-per-key.js';

describe('builtOncePerKey', () => {
  it('builds a value the first time a key is asked for, then hands out that same value', () => {
    const built: string[] = [];
    const valueFor = builtOncePerKey((key: string) => (built.push(key), { key }), 4);
    const first = valueFor('a');
    expect(valueFor('a')).toBe(first);
    expect(valueFor('b')).not.toBe(first);
    expect(valueFor('b')).toEqual({ key: 'b' });
    expect(built).toEqual(['a', 'b']);
  });

  it('keeps the last `max` keys: the oldest is dropped, and built again when asked for', () => {
    const built: number[] = [];
    const valueFor = builtOncePerKey((key: number) => (built.push(key), [key]), 3);
    const zero = valueFor(0);
    for (const key of [1, 2, 3]) valueFor(key);
    expect(built).toEqual([0, 1, 2, 3]);
    // 1, 2 and 3 are kept; 0 was dropped when 3 came.
    for (const key of [1, 2, 3]) valueFor(key);
    expect(built).toEqual([0, 1, 2, 3]);
    const zeroAgain = valueFor(0);
    expect(zeroAgain).toEqual([0]);
    expect(zeroAgain).not.toBe(zero);
    expect(built).toEqual([0, 1, 2, 3, 0]);
  });
});
