import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareSessionIds } from '../../src/session/compare-session-ids.js';

/** The byte order of UTF-8: what PostgreSQL's "C" collation sorts by. */
function byUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

describe('compareSessionIds', () => {
  it('orders by code point, not by UTF-16 code unit', () => {
    // U+FF21 (fullwidth A) is below U+1F600 (an emoji), though its code unit is above the emoji's first one.
    expect(['\u{1f600}', '\uff21', 'é', 'B', 'a'].sort(compareSessionIds)).toEqual(['B', 'a', 'é', '\uff21', '\u{1f600}']);
    expect(['\u{1f600}', '\uff21'].sort()).toEqual(['\u{1f600}', '\uff21']);
  });

  it('agrees with the byte order of UTF-8 on any well-formed strings', () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('a', 'B', '-', '_', 'é', '\ue000', '\uff21', '\uffff', '\u{10000}', '\u{1f600}', '\u{10ffff}'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 6 });
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(Math.sign(compareSessionIds(a, b))).toBe(Math.sign(byUtf8(a, b)));
      }),
      { numRuns: 2000 },
    );
  });
});
