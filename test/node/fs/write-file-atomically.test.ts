import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomically } from '../../../src/node/fs/write-file-atomically.js';
import { makeTempDir } from '../workspace-tools/helpers.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('atomic-write-');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const strays = async () => (await fs.readdir(dir)).filter((name) => name.startsWith('.tmp-'));

describe('writeFileAtomically', () => {
  it('replaces the file whole: until the new content takes its place, the target holds the old one', async () => {
    const target = path.join(dir, 'draft.md');
    await fs.writeFile(target, 'old');
    const before = await fs.stat(target);
    let seen: string | undefined;
    await writeFileAtomically(target, 'new content', { check: async () => void (seen = await fs.readFile(target, 'utf8')) });
    expect(seen).toBe('old');
    expect(await fs.readFile(target, 'utf8')).toBe('new content');
    expect((await fs.stat(target)).ino).not.toBe(before.ino);
    expect(await strays()).toEqual([]);
  });

  it.skipIf(process.platform !== 'linux')('syncs the new content and then its directory (the rename), unless fsync is false', async () => {
    const probe = await fs.open(path.join(dir, 'probe'), 'w');
    const prototype = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
    await probe.close();
    const synced: string[] = [];
    const sync = vi.spyOn(prototype, 'sync').mockImplementation(async function (this: { fd: number }) {
      synced.push(await fs.readlink(`/proc/self/fd/${this.fd}`).catch(() => '?'));
    });
    try {
      const target = path.join(dir, 'draft.md');
      await writeFileAtomically(target, 'new');
      expect(synced).toHaveLength(2);
      expect(synced[0]).toMatch(/\.tmp-/);
      expect(synced[1]).toBe(await fs.realpath(dir));
      synced.length = 0;
      await writeFileAtomically(target, 'newer', { fsync: false });
      expect(synced).toEqual([]);
    } finally {
      sync.mockRestore();
    }
  });

  it('gives the file exactly the mode asked, whatever the umask', async () => {
    const target = path.join(dir, 'secret.md');
    await writeFileAtomically(target, 'x', { mode: 0o600 });
    expect((await fs.stat(target)).mode & 0o777).toBe(0o600);
    await writeFileAtomically(target, 'y', { mode: 0o754 });
    expect((await fs.stat(target)).mode & 0o777).toBe(0o754);
  });

  it('leaves the target as it was and removes its temporary file when the write fails', async () => {
    const target = path.join(dir, 'draft.md');
    await fs.writeFile(target, 'old');
    await expect(writeFileAtomically(target, 'new', { check: async () => Promise.reject(new Error('disk trouble')) })).rejects.toThrow('disk trouble');
    expect(await fs.readFile(target, 'utf8')).toBe('old');
    expect(await strays()).toEqual([]);
  });

  it('exclusive: creates the file only when nothing is there', async () => {
    const target = path.join(dir, 'notes.md');
    await writeFileAtomically(target, 'first', { exclusive: true });
    expect(await fs.readFile(target, 'utf8')).toBe('first');
    await expect(writeFileAtomically(target, 'second', { exclusive: true })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await fs.readFile(target, 'utf8')).toBe('first');
    expect(await strays()).toEqual([]);
  });

  it('a process killed (SIGKILL) after writing the new content but before putting it in place leaves the old file whole', async () => {
    const target = path.join(dir, 'big.md');
    const old = Buffer.alloc(4 * 1024 * 1024, 'o');
    await fs.writeFile(target, old);
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../fixtures/atomic-writer.child.ts', import.meta.url)), target, String(8 * 1024 * 1024)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('written') && resolve());
      child.on('exit', () => reject(new Error('the writer exited before writing')));
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect((await fs.readFile(target)).equals(old)).toBe(true);
    // What the kill leaves is a whole temporary file beside it, never a torn target.
    const left = await strays();
    expect(left).toHaveLength(1);
    expect((await fs.stat(path.join(dir, left[0]!))).size).toBe(8 * 1024 * 1024);
  });
});
