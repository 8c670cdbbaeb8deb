import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STALE_TEMPORARY_AGE_MS } from '../../../src/node/fs/sweep-stale-temporaries.js';
import { writeFileAtomically } from '../../../src/node/fs/write-file-atomically.js';
import { makeTempDir } from '../workspace-tools/helpers.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('atomic-sweep-');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** A file at `name` whose modification time is `ageMs` ago. */
async function fileAged(name: string, ageMs: number): Promise<void> {
  const file = path.join(dir, name);
  await fs.writeFile(file, 'left behind');
  const when = new Date(Date.now() - ageMs);
  await fs.utimes(file, when, when);
}

describe('the temporary files of writes that never finished', () => {
  it('go at the first write of a process in their directory once an hour old; young ones, other names and directories stay', async () => {
    await fileAged('.tmp-0123456789abcdef', STALE_TEMPORARY_AGE_MS + 60_000);
    await fileAged('.tmp-fedcba9876543210', 60_000); // another writer's, in flight
    await fileAged('.tmp-notours', STALE_TEMPORARY_AGE_MS * 2); // not a name writeFileAtomically makes
    await fileAged('.tmp-0123456789ABCDEF', STALE_TEMPORARY_AGE_MS * 2);
    await fs.mkdir(path.join(dir, '.tmp-aaaaaaaaaaaaaaaa'));
    const old = new Date(Date.now() - STALE_TEMPORARY_AGE_MS * 2);
    await fs.utimes(path.join(dir, '.tmp-aaaaaaaaaaaaaaaa'), old, old);
    await writeFileAtomically(path.join(dir, 'plan.md'), 'text');
    expect((await fs.readdir(dir)).sort()).toEqual(['.tmp-0123456789ABCDEF', '.tmp-aaaaaaaaaaaaaaaa', '.tmp-fedcba9876543210', '.tmp-notours', 'plan.md']);
  });

  it('are looked for once per directory: a later write does not read the directory again', async () => {
    await writeFileAtomically(path.join(dir, 'a.md'), 'a');
    await fileAged('.tmp-0123456789abcdef', STALE_TEMPORARY_AGE_MS + 60_000);
    await writeFileAtomically(path.join(dir, 'b.md'), 'b');
    expect(await fs.readdir(dir)).toContain('.tmp-0123456789abcdef');
  });
});
