import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupDigits } from '../../src/model/group-digits.js';

const src = join(import.meta.dirname, '../../src');

describe('groupDigits', () => {
  it('writes a count as toLocaleString("en-US") writes the rounded number', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.integer({ min: -999_999, max: 999_999 }), fc.double({ min: -1e15, max: 1e15, noNaN: true })), (value) => {
        expect(groupDigits(value)).toBe(Math.round(value).toLocaleString('en-US'));
      }),
      { numRuns: 2000 },
    );
    for (const value of [0, 7, 12, 999, 1000, 2010, 99_999, 100_000, 123_456_789, -1, -1000, -1234.5, 2.5, 1e21, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, NaN, Infinity, -Infinity, -0, -0.4]) {
      expect(groupDigits(value), String(value)).toBe(Math.round(value).toLocaleString('en-US'));
    }
  });

  it('is what the library writes counts with: no toLocaleString elsewhere in src/', () => {
    const offenders: string[] = [];
    const walk = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts') && entry.name !== 'group-digits.ts' && /\.toLocaleString\(/.test(readFileSync(path, 'utf8'))) offenders.push(relative(src, path));
      }
    };
    walk(src);
    expect(offenders).toEqual([]);
  });
});
