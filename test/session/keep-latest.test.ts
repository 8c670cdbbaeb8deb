import { describe, expect, it } from 'vitest';
import { keepLatest } from '../../src/session/keep-latest.js';

describe('keepLatest', () => {
  it('keeps the keys most recently set, dropping the oldest beyond the bound; a key set again is the latest', () => {
    const map = new Map<string, number>();
    for (const [index, key] of ['a', 'b', 'c'].entries()) keepLatest(map, key, index, 3);
    expect([...map]).toEqual([['a', 0], ['b', 1], ['c', 2]]);
    keepLatest(map, 'a', 10, 3);
    expect([...map.keys()]).toEqual(['b', 'c', 'a']);
    keepLatest(map, 'd', 3, 3);
    expect([...map]).toEqual([['c', 2], ['a', 10], ['d', 3]]);
    // A map already past the bound (a bound lowered) is brought under it.
    const over = new Map([['x', 1], ['y', 2], ['z', 3]]);
    keepLatest(over, 'w', 4, 2);
    expect([...over.keys()]).toEqual(['z', 'w']);
  });
});
