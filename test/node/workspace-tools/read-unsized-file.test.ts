// Files that report size 0 but are streams (tracefs `trace_pipe`, `/proc/kmsg`) must never hold a
// Grep call: a read that would wait gives the file up. A FIFO opened read-write and non-blocking
// (a writer that never writes) is the portable stand-in for such a file: its read fails EAGAIN.
// FIFOs that a walk reaches are never opened for reading at all.
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { readUnsizedFile } from '../../../src/node/fs/read-unsized-file.js';
import type { Tool } from '../../../src/tools/types.js';
import { callTool, makeTempDir, toolNamed } from './helpers.js';

const posix = process.platform !== 'win32';
let work: string;
let glob: Tool;
let grep: Tool;

beforeEach(async () => {
  work = await makeTempDir('ws-unsized-');
  const tools = workspaceTools({ cwd: work });
  glob = toolNamed(tools, 'Glob');
  grep = toolNamed(tools, 'Grep');
});

afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

describe.runIf(posix)('readUnsizedFile', () => {
  it('gives up a file whose read would wait for data (EAGAIN), instead of throwing or waiting', { timeout: 10_000 }, async () => {
    const pipe = path.join(work, 'pipe');
    execFileSync('mkfifo', [pipe]);
    // Read-write: the open does not wait for a writer, and the read finds no data but a writer.
    const handle = await fs.open(pipe, constants.O_RDWR | constants.O_NONBLOCK);
    try {
      expect(await readUnsizedFile(handle, 1024)).toBe('would-block');
    } finally {
      await handle.close();
    }
  });

  it('reads to the end within the bound, refuses past it, and stops on an aborted signal', async () => {
    await fs.writeFile(path.join(work, 'small'), 'hello\n');
    const small = await fs.open(path.join(work, 'small'), 'r');
    try {
      expect((await readUnsizedFile(small, 1024)) as Buffer).toEqual(Buffer.from('hello\n'));
      expect(await readUnsizedFile(small, 1024, AbortSignal.abort())).toBe('interrupted');
    } finally {
      await small.close();
    }
    await fs.writeFile(path.join(work, 'big'), 'x'.repeat(200_000));
    const big = await fs.open(path.join(work, 'big'), 'r');
    try {
      expect(await readUnsizedFile(big, 100_000)).toBe('too-large');
    } finally {
      await big.close();
    }
  });
});

describe.runIf(posix)('FIFOs a search reaches never block it', () => {
  // The per-test timeout is the failure: a FIFO opened for reading with no writer waits for ever.
  it('Grep and Glob over a directory holding FIFOs (plain, linked, named like a match, as .gitignore) answer at once', { timeout: 10_000 }, async () => {
    await fs.mkdir(path.join(work, 'sub'));
    execFileSync('mkfifo', [path.join(work, 'pipe.txt'), path.join(work, 'sub', 'pipe.log'), path.join(work, 'sub', '.gitignore')]);
    await fs.symlink(path.join(work, 'pipe.txt'), path.join(work, 'link-to-pipe.txt'));
    await fs.writeFile(path.join(work, 'sub', 'real.txt'), 'needle\n');
    expect((await callTool(grep, { pattern: 'needle' })).text).toBe('Found 1 file\nsub/real.txt');
    expect((await callTool(grep, { pattern: 'needle', glob: '*.txt', output_mode: 'content' })).text).toBe('sub/real.txt:1:needle');
    expect((await callTool(grep, { pattern: 'needle', path: 'sub' })).text).toBe('Found 1 file\nsub/real.txt');
    // Glob reads no contents: it lists regular files and links, never FIFOs.
    expect((await callTool(glob, { pattern: '**/*' })).text.split('\n').sort()).toEqual(['link-to-pipe.txt', 'sub/real.txt']);
    // A FIFO (or a link to one) given as the path is refused by name.
    expect(await callTool(grep, { pattern: 'x', path: 'link-to-pipe.txt' })).toMatchObject({ isError: true });
    expect((await callTool(glob, { pattern: '*', path: 'pipe.txt' })).text).toBe('pipe.txt is not a directory.');
  });
});
