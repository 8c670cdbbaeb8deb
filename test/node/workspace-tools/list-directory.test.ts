import { readdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listDirectory } from '../../../src/node/workspace-tools/list-directory.js';
import { makeTempDir } from './helpers.js';

const openDescriptors = () => readdirSync('/proc/self/fd').length;

describe.skipIf(process.platform !== 'linux')('listDirectory', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.realpath(await makeTempDir('list-dir-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('lists a directory and leaves no descriptor open, whatever the outcome', async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'a');
    await fs.mkdir(path.join(dir, 'sub', 'inner'), { recursive: true });
    await fs.symlink(path.join(dir, 'sub'), path.join(dir, 'link'));
    const before = openDescriptors();
    for (let index = 0; index < 50; index++) {
      const listed = await listDirectory(dir);
      expect(listed.ok && listed.entries.map((entry) => entry.name.toString()).sort()).toEqual(['a.txt', 'link', 'sub']);
      // Opened, then found not to be the directory asked for (reached through a link).
      expect(await listDirectory(path.join(dir, 'link', 'inner'))).toEqual({ ok: false, reason: 'changed' });
      // Refused at the open: a final link.
      expect(await listDirectory(path.join(dir, 'link'))).toEqual({ ok: false, reason: 'changed' });
      expect(await listDirectory(path.join(dir, 'missing'))).toEqual({ ok: false, reason: 'gone' });
      expect(await listDirectory(path.join(dir, 'a.txt'))).toEqual({ ok: false, reason: 'changed' });
    }
    expect(openDescriptors()).toBe(before);
  });
});
