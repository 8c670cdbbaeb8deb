import { describe, expect, it } from 'vitest';
import { jsonCandidates, scanBalanced, type JsonCandidate, type JsonCandidatesEnd } from '../../src/plan/json-candidates.js';

function collect(text: string, budget?: number): { candidates: JsonCandidate[]; end: JsonCandidatesEnd } {
  const candidates: JsonCandidate[] = [];
  const search = jsonCandidates(text, budget === undefined ? {} : { budget });
  for (let step = search.next(); ; step = search.next()) {
    if (step.done) return { candidates, end: step.value };
    candidates.push(step.value);
  }
}

describe('scanBalanced', () => {
  it('finds the matching close, skipping strings, and reports truncated and mismatched spans', () => {
    expect(scanBalanced('{"a": "}", "b": [1]} x', 0)).toMatchObject({ kind: 'closed', end: 20 });
    expect(scanBalanced('{"a": [1, {', 0)).toMatchObject({ kind: 'truncated', open: 3 });
    expect(scanBalanced('{"a": ]', 0)).toMatchObject({ kind: 'mismatched' });
    expect(scanBalanced('{"a": [1, 2, 3]}', 0, undefined, 5)).toMatchObject({ kind: 'stopped' });
  });
});

describe('jsonCandidates', () => {
  it('offers the values nested in a parsed span, in document order, after the span', () => {
    const { candidates } = collect('x {"a": {"b": [1]}, "c": [{"d": 2}]} y');
    expect(candidates.map((candidate) => candidate.value)).toEqual([
      undefined,
      { a: { b: [1] }, c: [{ d: 2 }] },
      { b: [1] },
      [1],
      [{ d: 2 }],
      { d: 2 },
    ]);
    expect(candidates.slice(2).every((candidate) => candidate.text === undefined && candidate.parses)).toBe(true);
  });

  it('goes past a stray bracket, and offers it last only when nothing after it parses', () => {
    expect(collect('I considered { but: {"a": 1}').candidates.some((candidate) => candidate.truncated)).toBe(false);
    const { candidates } = collect('I considered { but no {JSON}');
    expect(candidates[candidates.length - 1]).toMatchObject({ truncated: true, text: '{ but no {JSON}', openBrackets: 1 });
  });

  it('ends the search at a cut-off value', () => {
    const { candidates } = collect('Here: {"a": [1, 2], "b": {"c"');
    expect(candidates.map((candidate) => candidate.truncated ?? false)).toEqual([false, true]);
  });

  it('says when the budget ran out', () => {
    expect(collect(`${'{a} '.repeat(100)}{"a": 1}`, 50).end).toEqual({ budgetExhausted: true });
    expect(collect(`${'{a} '.repeat(100)}{"a": 1}`).end).toEqual({ budgetExhausted: false });
  });
});
