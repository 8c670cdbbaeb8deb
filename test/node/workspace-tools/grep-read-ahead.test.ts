// Grep opens and reads a few files while an earlier one is matched (FILES_SEARCHED_AT_ONCE). What
// must hold as before: the output lists files in walk order whichever search ends first, a search
// stopped early leaves no file open and the worker goes back to the pool, and a pattern that times
// out or an interrupt over many files ends in one clear answer with no stray rejection.
import fs from 'node:fs/promises';
import { readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { callTool, makeTempDir, toolNamed } from './helpers.js';

let work: string;
const names = Array.from({ length: 12 }, (_, index) => `f${String(index).padStart(2, '0')}.txt`);
beforeAll(async () => {
  work = await makeTempDir('ws-grep-ahead-');
  // The first files are large (their match at the end), the later ones small: the later searches end first.
  for (const [index, name] of names.entries()) {
    const filler = index < 4 ? 'filler line without the word\n'.repeat(60_000) : '';
    await fs.writeFile(path.join(work, name), `${filler}needle in ${name} one\nneedle in ${name} two\n`);
  }
  await fs.mkdir(path.join(work, 'evil'));
  for (let index = 0; index < 12; index++) await fs.writeFile(path.join(work, 'evil', `e${index}.txt`), `${'a'.repeat(31)}!\n`);
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

/** This process's descriptors open on a file of the workspace (a worker's own descriptors are not counted). */
function openDescriptors(): number {
  let open = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${work}/`)) open++;
    } catch {
      // Closed since the listing.
    }
  }
  return open;
}

describe('Grep with files searched ahead', () => {
  it('lists matches in walk order whichever search ends first (content and count modes)', async () => {
    const grep = toolNamed(workspaceTools({ cwd: work }), 'Grep');
    const content = await callTool(grep, { pattern: 'needle', path: '.', glob: 'f*.txt', output_mode: 'content' });
    expect(content.isError).toBe(false);
    const expected = names.flatMap((name) => [`needle in ${name} one`, `needle in ${name} two`]);
    expect(content.text.split('\n').map((line) => line.replace(/^.*?:\d+:/, ''))).toEqual(expected);
    const count = await callTool(grep, { pattern: 'needle', glob: 'f*.txt', output_mode: 'count' });
    expect(count.text.split('\n').slice(1)).toEqual(names.map((name) => `${name}:2`));
  });

  it('stopped early by head_limit: the first files in walk order, and no file left open once it answers', async () => {
    const grep = toolNamed(workspaceTools({ cwd: work }), 'Grep');
    const result = await callTool(grep, { pattern: 'needle', glob: 'f*.txt', output_mode: 'content', head_limit: 3 });
    expect(openDescriptors()).toBe(0);
    const lines = result.text.split('\n');
    expect(lines.slice(0, 3).map((line) => line.replace(/^.*?:\d+:/, ''))).toEqual(['needle in f00.txt one', 'needle in f00.txt two', 'needle in f01.txt one']);
    expect(result.text).toMatch(/\[Showing the first 3 of more than 3 lines\.\]/);
  });

  it('stopped early, the worker goes back to the pool: the next search starts no thread', async () => {
    const grep = toolNamed(workspaceTools({ cwd: work }), 'Grep');
    await callTool(grep, { pattern: 'needle', glob: 'f*.txt', output_mode: 'content', head_limit: 1 });
    for (let round = 0; round < 3; round++) {
      const result = await callTool(grep, { pattern: 'needle', glob: 'f*.txt', output_mode: 'content', head_limit: 1 });
      expect(result.text).toMatch(/^.*f00\.txt:\d+:needle in f00\.txt one\n/);
      const threads = new Set(readdirSync('/proc/self/task'));
      await callTool(grep, { pattern: 'needle', path: 'f05.txt' });
      // A worker terminated because searches were still asking it would be started again here.
      expect([...readdirSync('/proc/self/task')].filter((id) => !threads.has(id))).toEqual([]);
    }
  });

  it('a pattern that times out over many files: one clear error, and no rejection left unhandled', async () => {
    const stray: unknown[] = [];
    const onStray = (reason: unknown) => stray.push(reason);
    process.on('unhandledRejection', onStray);
    try {
      const grep = toolNamed(workspaceTools({ cwd: work, grepTimeoutMs: 200 }), 'Grep');
      const result = await callTool(grep, { pattern: '^(a+)+$', path: 'evil', output_mode: 'content' });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/stopped after 200 ms/);
      expect(openDescriptors()).toBe(0);
      // Let any rejection nobody handled be reported.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(stray).toEqual([]);
    } finally {
      process.off('unhandledRejection', onStray);
    }
  });

  it('interrupted while several files are under way: answers at once that it was interrupted, leaving none open', async () => {
    const grep = toolNamed(workspaceTools({ cwd: work, grepTimeoutMs: 600_000 }), 'Grep');
    const controller = new AbortController();
    const call = callTool(grep, { pattern: '^(a+)+$', path: 'evil', output_mode: 'content' }, { signal: controller.signal });
    let ticks = 0;
    await new Promise<void>((resolve) => {
      const tick = () => (++ticks === 20 ? resolve() : setImmediate(tick));
      setImmediate(tick);
    });
    controller.abort();
    const result = await call;
    expect(result).toMatchObject({ isError: true, text: 'The search was interrupted.' });
    expect(openDescriptors()).toBe(0);
  });
});
