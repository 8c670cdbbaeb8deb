import { describe, expect, it } from 'vitest';
import { jsonBoundsProblem, TOOL_INPUT_BOUNDS } from '../../src/history/json-bounds.js';

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
});
