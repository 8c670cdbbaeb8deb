import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestingDepthOver } from '../../src/history/nesting-depth-over.js';

/** Levels of arrays and objects: 0 for anything else, 1 for an object of leaves. */
function nesting(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? Array.from(value) : Object.values(value);
  return 1 + Math.max(0, ...children.map(nesting));
}

function chain(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? [value] : { inner: value };
  return value;
}

describe('nestingDepthOver', () => {
  it('is true exactly when a value nests more than maxDepth levels, for any value and bound', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 8, withNullPrototype: true, withSparseArray: true, withObjectString: true }), fc.integer({ min: 0, max: 10 }), (value, maxDepth) => {
        expect(nestingDepthOver(value, maxDepth)).toBe(nesting(value) > maxDepth);
      }),
      { numRuns: 2000 },
    );
  });

  it('counts own properties only, and reads none a prototype gives', () => {
    const inherited = Object.create({ deep: chain(10) }) as object;
    expect(nestingDepthOver(inherited, 2)).toBe(false);
    expect(nestingDepthOver({ own: chain(3) }, 3)).toBe(true);
    expect(nestingDepthOver({ own: chain(3) }, 4)).toBe(false);
  });

  it('never overflows the stack: a chain of 100,000 levels, a cycle, and bounds past the recursive walk', () => {
    const deep = chain(100_000);
    expect(nestingDepthOver(deep, 162)).toBe(true);
    expect(nestingDepthOver(deep, 1024)).toBe(true);
    expect(nestingDepthOver(deep, 5000)).toBe(true);
    expect(nestingDepthOver(deep, 200_000)).toBe(false);
    const cycle: unknown[] = [];
    cycle.push({ back: cycle });
    expect(nestingDepthOver(cycle, 162)).toBe(true);
    expect(nestingDepthOver(cycle, 5000)).toBe(true);
  });

  it('gives the same answer by recursion and past it (bounds either side of 1024)', () => {
    for (const levels of [1023, 1024, 1025, 1026]) {
      for (const maxDepth of [1023, 1024, 1025]) expect(nestingDepthOver(chain(levels), maxDepth), `${levels} levels, bound ${maxDepth}`).toBe(levels > maxDepth);
    }
  });
});
