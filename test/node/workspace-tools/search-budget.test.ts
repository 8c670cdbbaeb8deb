import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { callTool, makeTempDir, toolNamed } from './helpers.js';

let work: string;

beforeEach(async () => {
  work = await makeTempDir('ws-budget-');
  // 3 directories × 10 files: 33 entries in all (3 directories + 30 files).
  for (const directory of ['a', 'b', 'c']) {
    await fs.mkdir(path.join(work, directory));
    for (let index = 0; index < 10; index++) await fs.writeFile(path.join(work, directory, `f${index}.txt`), `needle ${directory}${index}\n`);
  }
});

afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

/** A clock that moves `stepMs` each time it is read. */
function steppingClock(stepMs: number): () => number {
  let now = 0;
  return () => (now += stepMs);
}

describe('the walk of Glob and Grep is bounded', () => {
  it('Grep stops after maxSearchEntries entries and says the result is partial and how to narrow it', async () => {
    const grep = toolNamed(workspaceTools({ cwd: work, maxSearchEntries: 8 }), 'Grep');
    const result = await callTool(grep, { pattern: 'needle' });
    expect(result.isError).toBe(false);
    const files = result.text.split('\n').filter((line) => line.endsWith('.txt'));
    expect(files.length).toBeGreaterThan(0);
    expect(files.length).toBeLessThan(30);
    expect(result.text).toMatch(/stopped after visiting 8 entries \(maxSearchEntries\)/);
    expect(result.text).toMatch(/partial/);
    expect(result.text).toMatch(/[Nn]arrow the search/);
  });

  it('Glob stops after maxSearchEntries entries too, and never says "No files found" for a part it did not walk', async () => {
    const glob = toolNamed(workspaceTools({ cwd: work, maxSearchEntries: 5 }), 'Glob');
    const partial = await callTool(glob, { pattern: '**/*.txt' });
    expect(partial.text).toMatch(/stopped after visiting 5 entries \(maxSearchEntries\)/);
    const none = await callTool(glob, { pattern: '**/c/*.txt' });
    // c/ is reached last: the walk stopped before it, so "No files found" would be a lie.
    expect(none.text).not.toMatch(/^No files found$/);
    expect(none.text).toMatch(/No files found in the part searched/);
  });

  it('a search within the limit is complete and says nothing of it', async () => {
    const grep = toolNamed(workspaceTools({ cwd: work, maxSearchEntries: 33 }), 'Grep');
    const result = await callTool(grep, { pattern: 'needle' });
    expect(result.text).toMatch(/^Found 30 files/);
    expect(result.text).not.toMatch(/stopped/);
  });

  it('Grep stops once searchTimeBudgetMs has passed on the injected clock', async () => {
    const grep = toolNamed(workspaceTools({ cwd: work, searchTimeBudgetMs: 10_000, now: steppingClock(1_000) }), 'Grep');
    const result = await callTool(grep, { pattern: 'needle', output_mode: 'count' });
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(/stopped after 10000 ms \(searchTimeBudgetMs\)/);
    const counted = result.text.split('\n').filter((line) => /\.txt:1$/.test(line));
    expect(counted.length).toBeLessThan(30);
  });

  it('Glob stops once searchTimeBudgetMs has passed on the injected clock', async () => {
    const glob = toolNamed(workspaceTools({ cwd: work, searchTimeBudgetMs: 5_000, now: steppingClock(1_000) }), 'Glob');
    const result = await callTool(glob, { pattern: '**/*.txt' });
    expect(result.text).toMatch(/stopped after 5000 ms \(searchTimeBudgetMs\)/);
  });

  it('refuses limits that are not positive integers, naming the option', () => {
    expect(() => workspaceTools({ cwd: work, maxSearchEntries: 0 })).toThrow(ConfigurationError);
    expect(() => workspaceTools({ cwd: work, maxSearchEntries: 0 })).toThrow(/maxSearchEntries/);
    expect(() => workspaceTools({ cwd: work, searchTimeBudgetMs: -5 })).toThrow(/searchTimeBudgetMs/);
    expect(() => workspaceTools({ cwd: work, now: 5 as unknown as () => number })).toThrow(/`now`/);
  });
});

describe.runIf(existsSync('/proc/self/status'))('Grep reads size-0 regular files (procfs) with a bounded read', () => {
  it('finds text in /proc/<pid>/status, which reports size 0', async () => {
    const processDirectory = await fs.realpath('/proc/self');
    expect((await fs.stat(path.join(processDirectory, 'status'))).size).toBe(0);
    const grep = toolNamed(workspaceTools({ cwd: work, additionalDirectories: [processDirectory] }), 'Grep');
    const result = await callTool(grep, { pattern: '^Name:', path: path.join(processDirectory, 'status'), output_mode: 'content' });
    expect(result.text).toMatch(/status:1:Name:/);
  });

  it('an empty file is still no match', async () => {
    await fs.writeFile(path.join(work, 'empty.txt'), '');
    const grep = toolNamed(workspaceTools({ cwd: work }), 'Grep');
    expect((await callTool(grep, { pattern: '^$', path: 'empty.txt' })).text).toBe('No files found');
  });
});
