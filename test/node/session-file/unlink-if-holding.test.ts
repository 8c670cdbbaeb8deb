import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unlinkIfHolding } from '../../../src/node/session-file/unlink-if-holding.js';
import { tempDirs } from '../../temp-dirs.js';

const tempDir = tempDirs();

const dir = tempDir('unlink-if-holding-');
const content = '{"pid":12,"hostname":"hôte","createdAt":"2026-12-07T00:00:00.000Z"}\n';
let next = 0;
const pathWith = (text: string | Buffer) => {
  const path = join(dir, `lock-${next++}`);
  writeFileSync(path, text);
  return path;
};

describe('unlinkIfHolding', () => {
  it('deletes a file holding exactly the content', async () => {
    const path = pathWith(content);
    expect(await unlinkIfHolding(path, content)).toBe(true);
    expect(existsSync(path)).toBe(false);
  });

  it('leaves a file holding anything else: other content, one byte more or less, other bytes of the same text length', async () => {
    for (const other of [content.replace('12', '13'), `${content}x`, content.slice(0, -1), '', Buffer.from(content, 'latin1')]) {
      const path = pathWith(other);
      expect(await unlinkIfHolding(path, content)).toBe(false);
      expect(existsSync(path)).toBe(true);
    }
  });

  it('leaves a directory, and a FIFO without waiting on it', async () => {
    const directory = join(dir, `lock-${next++}`);
    mkdirSync(directory);
    expect(await unlinkIfHolding(directory, content)).toBe(false);
    expect(lstatSync(directory).isDirectory()).toBe(true);
    if (process.platform === 'win32') return;
    const fifo = join(dir, `lock-${next++}`);
    execFileSync('mkfifo', [fifo]);
    expect(await unlinkIfHolding(fifo, content)).toBe(false);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('fails with ENOENT when nothing is there', async () => {
    await expect(unlinkIfHolding(join(dir, 'missing'), content)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
