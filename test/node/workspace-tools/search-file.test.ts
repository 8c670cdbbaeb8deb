import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFile } from '../../../src/node/workspace-tools/search-file.js';
import { makeTempDir } from './helpers.js';

let dir: string;
let file: string;
beforeAll(async () => {
  dir = await makeTempDir('ws-search-file-');
  file = path.join(dir, 'notes.md');
  await fs.writeFile(file, 'alpha\nneedle\nomega\n');
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('searchFile: beforeRead', () => {
  const base = () => ({ absolutePath: file, accept: () => true, before: 0, after: 0, collectLines: true });

  it('is told the size before the file is read, and the search goes on when it says so (at once or later)', async () => {
    const sizes: number[] = [];
    let asked = 0;
    const matchingLines = async () => (asked++, [1]);
    const now = await searchFile({ ...base(), matchingLines, beforeRead: (size) => (sizes.push(size), true) });
    const later = await searchFile({ ...base(), matchingLines, beforeRead: (size) => (sizes.push(size), Promise.resolve(true)) });
    expect(sizes).toEqual([19, 19]);
    expect(now!.lines).toEqual([{ number: 2, text: 'needle', isMatch: true }]);
    expect(later).toEqual(now);
    expect(asked).toBe(2);
  });

  it('a refusal ends the search of that file unread: no match asked for, nothing found', async () => {
    let asked = 0;
    const matchingLines = async () => (asked++, [1]);
    expect(await searchFile({ ...base(), matchingLines, beforeRead: () => false })).toBeUndefined();
    expect(await searchFile({ ...base(), matchingLines, beforeRead: () => Promise.resolve(false) })).toBeUndefined();
    expect(asked).toBe(0);
  });
});
