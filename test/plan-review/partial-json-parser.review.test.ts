import { describe, expect, it } from 'vitest';
import { createPartialJsonParser } from 'agent-harness';

describe('review: createPartialJsonParser', () => {
  it('is not captured by a markdown checkbox or a citation in the preamble', () => {
    for (const preamble of ['Plan:\n- [ ] step one\n', 'As noted [1], here it is:\n']) {
      const parser = createPartialJsonParser();
      parser.push(preamble);
      parser.push('{"goal": "x"}');
      expect(parser.value, preamble).toEqual({ goal: 'x' }); // actual: [] / [1], complete: true, the JSON is ignored
    }
  });

  it('streams a 200 KB answer in 16-char deltas in linear-ish time', () => {
    const text = JSON.stringify({ goal: 'g', outline: Array.from({ length: 4000 }, () => 'y'.repeat(45)), steps: [{ title: 't' }], risks: [] });
    const parser = createPartialJsonParser();
    const started = performance.now();
    for (let index = 0; index < text.length; index += 16) parser.push(text.slice(index, index + 16));
    expect(parser.complete).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000); // actual: ~12 s (each push re-parses from the start)
  });
});
