import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { workspaceTools } from '../../src/node/workspace-tools.js';
import { readOpenFile } from '../../src/node/fs/read-open-file.js';
import type { Tool } from '../../src/tools/types.js';
import { callTool, fakeAgent, makeTempDir, toolNamed } from '../node/workspace-tools/helpers.js';

// Edit's validation looked the file up by name twice: a stat (a regular file), then a read by
// name. A file swapped for a FIFO in between blocked the read, and the whole run, for ever.
let work: string;
let tools: Tool[];

beforeEach(async () => {
  work = await makeTempDir('ws-fifo-');
  tools = workspaceTools({ cwd: work });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await fs.rm(work, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('a file swapped for a FIFO while Edit validates does not hang it', () => {
  it('Edit refuses it as not a regular file', async () => {
    const file = path.join(work, 'notes.txt');
    await fs.writeFile(file, 'alpha\n');
    const agent = fakeAgent();
    await callTool(toolNamed(tools, 'Read'), { file_path: 'notes.txt' }, { agent });
    // The first look at the file by name (after its read) swaps it for a FIFO: no writer ever opens it.
    const realStat = fs.stat.bind(fs);
    const realLstat = fs.lstat.bind(fs);
    let swapped = false;
    const swap = async () => {
      if (swapped) return;
      swapped = true;
      await fs.rm(file);
      execFileSync('mkfifo', [file]);
    };
    vi.spyOn(fs, 'stat').mockImplementation((async (target: string, options?: object) => {
      const result = await realStat(target, options as never);
      if (target === file) await swap();
      return result;
    }) as never);
    vi.spyOn(fs, 'lstat').mockImplementation((async (target: string, options?: object) => {
      const result = await realLstat(target, options as never);
      if (target === file) await swap();
      return result;
    }) as never);
    const result = await callTool(toolNamed(tools, 'Edit'), { file_path: 'notes.txt', old_string: 'alpha', new_string: 'beta' }, { agent, answer: () => true });
    expect(swapped).toBe(true);
    expect(result).toMatchObject({ isError: true, text: expect.stringMatching(/not a regular file|changed/) });
  }, 10_000);
});

describe('readOpenFile reads no more than the size it was given', () => {
  it('a file that grows after its size was taken', async () => {
    const file = path.join(work, 'grows.log');
    await fs.writeFile(file, '');
    const handle = await fs.open(file, 'r');
    try {
      await fs.appendFile(file, 'x'.repeat(100_000));
      expect((await readOpenFile(handle, 0)).length).toBe(0);
      expect((await readOpenFile(handle, 10)).toString()).toBe('x'.repeat(10));
      // FileHandle.readFile of a file that said size 0 reads it to its end, however far that is.
      expect((await handle.readFile()).length).toBe(100_000);
    } finally {
      await handle.close();
    }
  });
});
