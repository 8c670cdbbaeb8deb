import { describe, expect, it } from 'vitest';
import { jsonLinesBytes } from '../../../src/node/session-file/json-lines-bytes.js';

describe('jsonLinesBytes', () => {
  it('is the UTF-8 of the lines, each followed by a line break, for every width of character', () => {
    const lines = [
      JSON.stringify({ text: 'plain' }),
      JSON.stringify({ text: 'é’漢😀 and a lone \ud800 escaped by JSON' }),
      JSON.stringify({ text: '’'.repeat(70_000) }),
      '{}',
    ];
    const bytes = jsonLinesBytes(lines);
    expect(bytes.equals(Buffer.from(lines.map((line) => `${line}\n`).join(''), 'utf8'))).toBe(true);
    expect(bytes.toString('utf8').split('\n').slice(0, -1)).toEqual(lines);
  });

  it('is empty for no lines', () => {
    expect(jsonLinesBytes([]).length).toBe(0);
  });
});
