import { describe, expect, it } from 'vitest';
import { extractJson, PlanSchema } from 'agent-harness';

const plan = { goal: 'g', outline: [], steps: [{ title: 't' }], risks: [] };

describe('review: extractJson wrong picks', () => {
  it('does not "unwrap" a single-field object whose string merely mentions brackets (no schema)', () => {
    const result = extractJson('{"note": "see [1]"}');
    expect(result.ok && result.value).toEqual({ note: 'see [1]' }); // actual: [1]
  });

  it('does not "unwrap" a JSON string whose prose merely contains an array (no schema)', () => {
    const result = extractJson('"Use the list [1, 2] here"');
    expect(result.ok && result.value).toBe('Use the list [1, 2] here'); // actual: [1, 2]
  });

  it('finds the JSON after a stray opening brace/bracket or a quoted "{" in the prose', () => {
    for (const prefix of ['I first considered { but then:\n', 'Note [see below:\n', 'Sure :-{ here you go\n', 'The "{" char matters.\n']) {
      const result = extractJson(prefix + JSON.stringify(plan), { schema: PlanSchema });
      expect(result.ok, prefix).toBe(true); // actual: reason 'truncated' ("Your JSON is cut off")
    }
  });

  it('returns a failure (never throws) for deeply nested input that fails the schema', () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000); // 10 KB
    expect(() => extractJson(deep, { schema: PlanSchema })).not.toThrow(); // actual: RangeError from describeValue
  });
});

describe('review: extractJson time on large inputs', () => {
  it('handles ~240 KB of nested (valid, schema-failing) JSON in well under a second', () => {
    const depth = 40_000;
    const nested = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    const started = performance.now();
    const result = extractJson(nested, { schema: PlanSchema });
    const elapsed = performance.now() - started;
    expect(result.ok).toBe(false);
    expect(elapsed).toBeLessThan(1000); // actual: ~3-6 s (1 MB: ~25 s): 500 starts x (scan + JSON.parse of the rest)
  });

  it('1 MB of prose with brace pairs before a valid plan still finds the plan (or says why)', () => {
    const text = '{a} '.repeat(1 << 18) + JSON.stringify(plan);
    const result = extractJson(text, { schema: PlanSchema });
    // actual: ok:false reason 'invalid-json' ("Your answer has JSON that cannot be parsed") although the JSON is valid:
    // MAX_BALANCED_STARTS=500 stops the scan before the plan.
    expect(result.ok || result.reason).toBe(true);
  });
});
