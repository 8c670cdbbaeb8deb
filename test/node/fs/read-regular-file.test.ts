import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRegularFile } from '../../../src/node/fs/read-regular-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'read-regular-file-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('readRegularFile: the text of a regular file, read from the size its own fstat gave', () => {
  it.each([
    ['a short text', 'hello\n'],
    ['multi-byte characters', 'é — ✓ 😀\n'.repeat(3)],
    ['a byte order mark', '\uFEFFfirst line\n'],
    ['a file larger than one read of unknown size', 'x'.repeat(20_000) + '✓'],
    ['an empty file', ''],
  ])('reads %s whole, as readFile does', async (_name, text) => {
    const file = join(dir, 'file.txt');
    writeFileSync(file, text);
    expect(await readRegularFile(file)).toBe(text);
  });

  it('reads a file whose fstat size is 0 though it has content (procfs) up to its end', async () => {
    if (!existsSync('/proc/self/status')) return;
    const text = await readRegularFile('/proc/self/status');
    expect(text).toMatch(/^Name:/);
    expect(text).toContain('\nPid:');
  });

  it('gives undefined for nothing there, a directory and a FIFO (without waiting for a writer), and refuses a link', async () => {
    expect(await readRegularFile(join(dir, 'missing'))).toBeUndefined();
    mkdirSync(join(dir, 'folder'));
    expect(await readRegularFile(join(dir, 'folder'))).toBeUndefined();
    if (process.platform !== 'win32') {
      execFileSync('mkfifo', [join(dir, 'fifo')]);
      expect(await readRegularFile(join(dir, 'fifo'))).toBeUndefined();
      writeFileSync(join(dir, 'target'), 'secret');
      symlinkSync(join(dir, 'target'), join(dir, 'link'));
      await expect(readRegularFile(join(dir, 'link'))).rejects.toMatchObject({ code: 'ELOOP' });
    }
  });
});
