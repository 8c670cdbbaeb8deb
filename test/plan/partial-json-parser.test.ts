import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPartialJsonParser } from '../../src/plan/partial-json-parser.js';
import type { StructuredPlan } from '../../src/plan/plan-schema.js';

/** Whether `partial` could still grow into `final`: strings are prefixes, everything else already equal. */
function consistent(partial: unknown, final: unknown): boolean {
  if (partial === undefined) return true;
  if (typeof final === 'string') return typeof partial === 'string' && final.startsWith(partial);
  if (Array.isArray(final)) {
    return Array.isArray(partial) && partial.length <= final.length && partial.every((item, index) => consistent(item, final[index]));
  }
  if (typeof final === 'object' && final !== null) {
    if (typeof partial !== 'object' || partial === null || Array.isArray(partial)) return false;
    return Object.keys(partial).every((key) => Object.hasOwn(final, key) && consistent((partial as Record<string, unknown>)[key], (final as Record<string, unknown>)[key]));
  }
  return Object.is(partial, final);
}

/** Feeds `chunks` one by one; checks every value against the final one and the one before. */
function feed(chunks: string[], final: unknown) {
  const parser = createPartialJsonParser();
  let previous: unknown;
  for (const chunk of chunks) {
    const value = parser.push(chunk);
    expect(value).toBe(parser.value);
    if (!consistent(value, final)) throw new Error(`Inconsistent after ${JSON.stringify(parser.text)}: ${JSON.stringify(value)}`);
    if (!consistent(previous, value)) throw new Error(`Went backwards after ${JSON.stringify(parser.text)}: ${JSON.stringify(previous)} → ${JSON.stringify(value)}`);
    previous = value;
  }
  return parser;
}

const plan: StructuredPlan = {
  goal: 'Explain "escapes" \\ like \n newlines, tabs\t, unicode é 😀 and \u0001 controls',
  outline: ['Intro', '', 'Body [with brackets] and {braces}'],
  steps: [
    { title: 'Draft', detail: 'Numbers: 0, -12.5e+3, 1e-7' },
    { title: 'Review' },
  ],
  risks: [],
};
const answer = `Sure! Here is the plan:\n\n\`\`\`json\n${JSON.stringify({ ...plan, version: -12.5e3, ok: true, none: null, nested: [[1, [2]], {}] }, null, 2)}\n\`\`\`\n\nTell me what you think {of it}.`;
const expected = JSON.parse(answer.slice(answer.indexOf('{'), answer.lastIndexOf('```')));

describe('createPartialJsonParser', () => {
  it('returns a consistent, monotonic value for a stream split at every character', () => {
    const parser = feed([...answer], expected);
    expect(parser.complete).toBe(true);
    expect(parser.value).toEqual(expected);
  });

  it('reaches the same value whatever the split point of two chunks', () => {
    for (let index = 0; index <= answer.length; index++) {
      const parser = feed([answer.slice(0, index), answer.slice(index)], expected);
      expect(parser.value).toEqual(expected);
    }
  });

  it('shows strings growing and numbers only once complete', () => {
    const parser = createPartialJsonParser<{ goal: string; count: number; tags: string[] }>();
    expect(parser.push('Thinking... ')).toBeUndefined();
    expect(parser.push('{')).toBeUndefined(); // a lone brace could still be prose
    expect(parser.push('"go')).toEqual({});
    expect(parser.push('al": "Wri')).toEqual({ goal: 'Wri' });
    expect(parser.push('te\\')).toEqual({ goal: 'Write' });
    expect(parser.push('n\\u00')).toEqual({ goal: 'Write\n' });
    expect(parser.push('e9", "count": 1')).toEqual({ goal: 'Write\né' });
    expect(parser.push('2')).toEqual({ goal: 'Write\né' });
    expect(parser.push(', "tags": [tr')).toEqual({ goal: 'Write\né', count: 12, tags: [] });
    expect(parser.complete).toBe(false);
    expect(parser.push('ue')).toEqual({ goal: 'Write\né', count: 12, tags: [true] as never });
  });

  it('passes over prose brackets and braces that are not JSON', () => {
    const parser = createPartialJsonParser();
    parser.push('Using the [draft] notes and {curly} ideas: ');
    expect(parser.value).toBeUndefined();
    parser.push('{"a": [1, 2]} and {"b": 2}');
    expect(parser.value).toEqual({ a: [1, 2] });
    expect(parser.complete).toBe(true);
    parser.push('ignored');
    expect(parser.value).toEqual({ a: [1, 2] });
  });

  it('freezes at a syntax error instead of going backwards', () => {
    const parser = createPartialJsonParser();
    parser.push('{"a": "x", b: 1, "c": 2}');
    expect(parser.value).toEqual({ a: 'x' });
    expect(parser.complete).toBe(false);
  });

  it('keeps __proto__ as a plain field, like JSON.parse', () => {
    const parser = createPartialJsonParser();
    parser.push('{"__proto__": {"polluted": true}}');
    expect(Object.hasOwn(parser.value as object, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('starts over after reset', () => {
    const parser = createPartialJsonParser({ root: 'object-or-array' });
    parser.push('[1, 2]');
    parser.reset();
    expect(parser.value).toBeUndefined();
    expect(parser.push('["x"]')).toEqual(['x']);
  });

  it('is not captured by a markdown checkbox or a citation before the JSON', () => {
    for (const preamble of ['Plan:\n- [ ] step one\n- [x] step two\n', 'As noted [1], here it is:\n', 'See [docs](https://x.y) and [2]: ']) {
      const parser = createPartialJsonParser();
      parser.push(preamble);
      expect(parser.value, preamble).toBeUndefined();
      parser.push('{"goal": "x"}');
      expect(parser.value, preamble).toEqual({ goal: 'x' });
      expect(parser.complete).toBe(true);
    }
  });

  it('takes a top-level array only when asked to', () => {
    const text = 'The steps: ["a", "b"] and {"c": 1}';
    const objects = createPartialJsonParser();
    objects.push(text);
    expect(objects.value).toEqual({ c: 1 });
    const any = createPartialJsonParser({ root: 'object-or-array' });
    any.push(text);
    expect(any.value).toEqual(['a', 'b']);
  });

  it('never changes a value it returned earlier', () => {
    const parser = createPartialJsonParser();
    const returned: Array<{ value: unknown; json: string }> = [];
    for (const char of answer) {
      const value = parser.push(char);
      returned.push({ value, json: JSON.stringify(value) ?? 'undefined' });
    }
    for (const { value, json } of returned) expect(JSON.stringify(value) ?? 'undefined').toBe(json);
  });

  it('streams a long answer in small deltas to the same value JSON.parse gives', () => {
    const final = { goal: 'g', outline: Array.from({ length: 4000 }, (_, index) => `item ${index} ${'y'.repeat(40)}`), steps: [{ title: 't' }], risks: [] };
    const text = JSON.stringify(final);
    const parser = createPartialJsonParser();
    let outlineSeen = 0;
    for (let index = 0; index < text.length; index += 16) {
      const value = parser.push(text.slice(index, index + 16)) as { outline?: string[] } | undefined;
      const length = value?.outline?.length ?? 0;
      expect(length).toBeGreaterThanOrEqual(outlineSeen);
      outlineSeen = length;
    }
    expect(parser.complete).toBe(true);
    expect(parser.value).toEqual(final);
  });

  it('holds for arbitrary JSON objects split at arbitrary points', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.boolean(),
        (value, cuts, pretty) => {
          const final = JSON.parse(JSON.stringify(value));
          const text = JSON.stringify(final, null, pretty ? 2 : undefined);
          const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...points].map((point, index, all) => text.slice(point, all[index + 1] ?? text.length));
          const parser = feed(chunks, final);
          expect(parser.value).toEqual(final);
          expect(parser.complete).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
