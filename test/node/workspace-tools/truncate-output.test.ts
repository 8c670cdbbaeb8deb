// A cut inside an emoji leaves a lone surrogate, which the Messages API refuses with 400 "no low
// surrogate in string": every shortened output cuts at a code point boundary.
import fs from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFileWindow } from '../../../src/node/workspace-tools/read-file-window.js';
import { searchFile } from '../../../src/node/workspace-tools/search-file.js';
import { BoundedText, truncateEnd, truncateMiddle } from '../../../src/node/workspace-tools/truncate-output.js';
import { makeTempDir } from './helpers.js';

/** No lone surrogate (with the u flag, a pair is one code point and does not match). */
const wellFormed = (text: string) => !/\p{Surrogate}/u.test(text);
const emojis = (count: number) => '😀'.repeat(count);

describe('shortened outputs never split a surrogate pair', () => {
  it('truncateMiddle and truncateEnd', () => {
    for (const maxChars of [9, 10, 11, 12]) {
      expect(wellFormed(truncateMiddle(`x${emojis(50)}`, maxChars))).toBe(true);
      expect(wellFormed(truncateMiddle(emojis(50), maxChars))).toBe(true);
      expect(wellFormed(truncateEnd(`x${emojis(50)}`, maxChars, 'hint'))).toBe(true);
      expect(wellFormed(truncateEnd(emojis(50), maxChars, 'hint'))).toBe(true);
    }
  });

  it('BoundedText keeps the order of the text and whole characters, however it is chunked (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 60 }), fc.integer({ min: 1, max: 80 }), (chunks, maxChars) => {
        const bounded = new BoundedText(maxChars);
        for (const chunk of chunks) bounded.push(chunk);
        const whole = chunks.join('');
        const shown = bounded.toString();
        expect(wellFormed(shown)).toBe(true);
        if (whole.length <= maxChars) expect(shown).toBe(whole);
        else {
          const [head, tail] = shown.split(/\n\n\.\.\. \[\d+ characters omitted\] \.\.\.\n\n/);
          expect(whole.startsWith(head!)).toBe(true);
          expect(whole.endsWith(tail!)).toBe(true);
          expect(head!.length + tail!.length).toBeLessThanOrEqual(maxChars);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a long line cut by Read and by Grep', async () => {
    const dir = await makeTempDir();
    const file = path.join(dir, 'emoji.txt');
    await fs.writeFile(file, `x${emojis(1_000)}\n`);
    const handle = await fs.open(file, 'r');
    try {
      const window = await readFileWindow(handle, { startLine: 1, maxLines: 10, maxBytes: 100_000, maxLineChars: 100, maxImageBytes: 1_000_000 });
      expect(window.lines[0]).toContain('[line truncated]');
      expect(wellFormed(window.lines[0]!)).toBe(true);
      const found = await searchFile({ absolutePath: file, accept: () => true, matchingLines: async () => [0], before: 0, after: 0, collectLines: true });
      expect(found!.lines[0]!.text).toContain('[line truncated]');
      expect(wellFormed(found!.lines[0]!.text)).toBe(true);
    } finally {
      await handle.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
