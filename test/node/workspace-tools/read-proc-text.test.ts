import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readProcText } from '../../../src/node/workspace-tools/read-proc-text.js';

describe('readProcText', () => {
  const dir = mkdtempSync(join(tmpdir(), 'proc-text-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file whole, however long (its buffer grows), and each read only its own bytes', () => {
    const long = join(dir, 'long');
    const short = join(dir, 'short');
    const text = Array.from({ length: 40_000 }, (_, index) => `${index}\0`).join('');
    writeFileSync(long, text, 'latin1');
    writeFileSync(short, 'processes 42\n');
    expect(readProcText(long)).toBe(text);
    expect(readProcText(short)).toBe('processes 42\n');
    expect(readProcText(long)).toBe(text);
    expect(readProcText(short)).toBe('processes 42\n');
  });

  it.skipIf(process.platform !== 'linux')('reads /proc files, which report a size of 0', () => {
    expect(readProcText('/proc/self/stat')).toMatch(new RegExp(`^${process.pid} \\(`));
    expect(readProcText('/proc/stat')).toMatch(/^processes \d+$/m);
  });

  it('throws as opening the file does', () => {
    expect(() => readProcText(join(dir, 'missing'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
