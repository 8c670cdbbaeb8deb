import { describe, expect, it } from 'vitest';
import { jsonBoundsProblem, TOOL_INPUT_BOUNDS, walkedProblem } from '../../src/history/json-bounds.js';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let index = 0; index < depth; index++) value = [value];
  return value;
}

describe('jsonBoundsProblem', () => {
  it('accepts plain JSON within the bounds', () => {
    expect(jsonBoundsProblem({ a: [1, 'two', null, true, { b: 2.5 }] }, TOOL_INPUT_BOUNDS)).toBeUndefined();
    expect(jsonBoundsProblem(nested(63), TOOL_INPUT_BOUNDS)).toBeUndefined();
  });

  it('refuses deep nesting without overflowing the stack, even 100,000 levels', () => {
    expect(jsonBoundsProblem(nested(65), TOOL_INPUT_BOUNDS)).toBe('nested deeper than 64 levels');
    expect(jsonBoundsProblem(nested(100_000), TOOL_INPUT_BOUNDS)).toBe('nested deeper than 64 levels');
  });

  it('refuses too many characters, counting keys too', () => {
    const bounds = { maxDepth: 10, maxChars: 10, maxNodes: 100 };
    expect(jsonBoundsProblem({ abc: 'defgh' }, bounds)).toBeUndefined();
    expect(jsonBoundsProblem({ abcdef: 'ghijk' }, bounds)).toBe('longer than 10 characters');
    expect(jsonBoundsProblem('x'.repeat(11), bounds)).toBe('longer than 10 characters');
  });

  it('refuses too many values', () => {
    expect(jsonBoundsProblem(Array.from({ length: 20 }, () => 0), { maxDepth: 5, maxChars: 100, maxNodes: 10 })).toBe('made of more than 10 values');
  });

  it('refuses what is not plain JSON: cycles, functions, non-finite numbers, undefined, bigint', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(jsonBoundsProblem(cycle, TOOL_INPUT_BOUNDS)).toMatch(/refers to itself/);
    expect(jsonBoundsProblem({ f: () => 1 }, TOOL_INPUT_BOUNDS)).toMatch(/function/);
    expect(jsonBoundsProblem({ n: Number.NaN }, TOOL_INPUT_BOUNDS)).toMatch(/not finite/);
    expect(jsonBoundsProblem({ n: Number.POSITIVE_INFINITY }, TOOL_INPUT_BOUNDS)).toMatch(/not finite/);
    expect(jsonBoundsProblem([undefined], TOOL_INPUT_BOUNDS)).toMatch(/undefined/);
    expect(jsonBoundsProblem({ big: 1n }, TOOL_INPUT_BOUNDS)).toMatch(/bigint/);
  });

  it('accepts a value shared twice without a cycle (JSON writes it twice)', () => {
    const shared = { x: 1 };
    expect(jsonBoundsProblem({ a: shared, b: [shared, shared] }, TOOL_INPUT_BOUNDS)).toBeUndefined();
  });

  it('finds a cycle deep in the value, through arrays and objects, and only on the path', () => {
    const inner: Record<string, unknown> = { list: [] };
    (inner.list as unknown[]).push({ back: [inner] });
    expect(jsonBoundsProblem({ a: { b: inner } }, TOOL_INPUT_BOUNDS)).toMatch(/refers to itself/);
    // The same container again, but after its branch closed: at a shallower and at a deeper level.
    const leaf = { deep: { deeper: [1, 2] } };
    expect(jsonBoundsProblem([{ one: leaf }, leaf, [[{ two: leaf }]]], TOOL_INPUT_BOUNDS)).toBeUndefined();
    expect(jsonBoundsProblem([[[leaf]], leaf], TOOL_INPUT_BOUNDS)).toBeUndefined();
  });

  it('counts every value and key of wide and nested inputs', () => {
    const wide = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`k${index}`, [index, { s: 'x' }]]));
    // 1 root + 50 arrays + 50 numbers + 50 objects + 50 strings
    expect(jsonBoundsProblem(wide, { maxDepth: 8, maxChars: 10_000, maxNodes: 201 })).toBeUndefined();
    expect(jsonBoundsProblem(wide, { maxDepth: 8, maxChars: 10_000, maxNodes: 200 })).toMatch(/more than 200 values/);
    // keys k0..k49 (140 chars) + 50 "s" keys + 50 "x" strings
    expect(jsonBoundsProblem(wide, { maxDepth: 8, maxChars: 240, maxNodes: 1000 })).toBeUndefined();
    expect(jsonBoundsProblem(wide, { maxDepth: 8, maxChars: 239, maxNodes: 1000 })).toMatch(/longer than 239/);
    expect(jsonBoundsProblem(wide, { maxDepth: 2, maxChars: 10_000, maxNodes: 1000 })).toMatch(/deeper than 2/);
    expect(jsonBoundsProblem(wide, { maxDepth: 3, maxChars: 10_000, maxNodes: 1000 })).toBeUndefined();
  });

  it('refuses an array longer than the value bound at once, without walking it', () => {
    expect(jsonBoundsProblem(new Array(2 ** 32 - 1), TOOL_INPUT_BOUNDS)).toMatch(/more than 1000000 values/);
    expect(jsonBoundsProblem({ list: new Array(1_000_000) }, TOOL_INPUT_BOUNDS)).toMatch(/more than 1000000 values/);
    // Exactly at the bound: the root array and its 9 elements are 10 values.
    expect(jsonBoundsProblem(new Array(9).fill(0), { maxDepth: 4, maxChars: 100, maxNodes: 10 })).toBeUndefined();
    expect(jsonBoundsProblem(new Array(10).fill(0), { maxDepth: 4, maxChars: 100, maxNodes: 10 })).toMatch(/more than 10 values/);
  });
});

describe('jsonBoundsProblem on flat objects (checked without the walk)', () => {
  /** A small deterministic generator, so a failure names a seed that replays it. */
  const random = (seed: number) => () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const VALUES: Array<(next: () => number) => unknown> = [
    () => null,
    (next) => next() < 0.5,
    (next) => Math.floor(next() * 1000) - 500,
    () => Number.NaN,
    () => Number.POSITIVE_INFINITY,
    (next) => 'x'.repeat(Math.floor(next() * 12)),
    () => undefined,
    () => () => 'a function',
    () => 10n,
    () => Symbol('s'),
    () => ({ nested: 'yes' }),
    () => ['an', 'array'],
  ];

  it('gives the same answer as the full walk, for 5,000 random objects and bounds', () => {
    for (let seed = 1; seed <= 5_000; seed++) {
      const next = random(seed);
      const value: Record<string, unknown> = {};
      const size = Math.floor(next() * 6);
      for (let index = 0; index < size; index++) value[`k${'e'.repeat(Math.floor(next() * 4))}${index}`] = VALUES[Math.floor(next() * VALUES.length)]!(next);
      const bounds = { maxDepth: Math.floor(next() * 3), maxChars: Math.floor(next() * 40), maxNodes: Math.floor(next() * 8) };
      expect(jsonBoundsProblem(value, bounds), `seed ${seed}`).toBe(walkedProblem(value, bounds));
    }
  });

  it('reports the last problem value first, as the walk pops them', () => {
    expect(jsonBoundsProblem({ a: Number.NaN, b: () => 1 }, TOOL_INPUT_BOUNDS)).toBe('not plain JSON (it holds a function)');
    expect(jsonBoundsProblem({ a: () => 1, b: Number.NaN }, TOOL_INPUT_BOUNDS)).toBe('not plain JSON (a number that is not finite)');
  });
});
