// utf8Lines decodes a file in pieces and must give exactly the lines Grep got from the whole
// text (`toString('utf8').split(/\r?\n/)`, the last empty line dropped), wherever a piece ends:
// inside a multi-byte character, between the `\r` and `\n` of a `\r\n`, inside a long line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Lines } from '../../../src/node/workspace-tools/utf8-lines.js';

function reference(bytes: Uint8Array): string[] {
  const lines = Buffer.from(bytes).toString('utf8').split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

describe('utf8Lines', () => {
  it('gives the lines of the whole text for any bytes and any size of piece (property)', () => {
    const part = fc.oneof(
      fc.constantFrom('\n', '\r\n', '\r', '\r\r\n', '\n\n', 'é', '😀', '中', 'abc', ''),
      fc.string({ maxLength: 6 }),
      fc.uint8Array({ minLength: 1, maxLength: 3 }).map((bytes) => Buffer.from(bytes)),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 40 }), fc.integer({ min: 1, max: 9 }), (parts, chunkBytes) => {
        const bytes = Buffer.concat(parts.map((value) => (typeof value === 'string' ? Buffer.from(value) : value)));
        expect(utf8Lines(bytes, chunkBytes)).toEqual(reference(bytes));
      }),
      { numRuns: 500 },
    );
  });

  it('a lone \\r is not a line break, a \\r\\n split between pieces is one', () => {
    expect(utf8Lines(Buffer.from('a\rb\r\nc'), 2)).toEqual(['a\rb', 'c']);
    expect(utf8Lines(Buffer.from('ab\r\ncd\r\n'), 3)).toEqual(['ab', 'cd']);
    expect(utf8Lines(Buffer.from(''))).toEqual([]);
    expect(utf8Lines(Buffer.from('\n'))).toEqual(['']);
  });

  it('a large text with lines longer than a piece, and many lines, reads the same as decoded whole', () => {
    const long = 'x'.repeat(200 * 1024);
    const text = `${long}\n${Array.from({ length: 30_000 }, (_, index) => `line ${index} é`).join('\r\n')}\n${long}`;
    expect(utf8Lines(Buffer.from(text))).toEqual(reference(Buffer.from(text)));
  });
});
