import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { workspaceTools } from '../../src/node/workspace-tools.js';
import type { Tool } from '../../src/tools/types.js';
import { callTool, makeTempDir, toolNamed } from '../node/workspace-tools/helpers.js';

// Grep's deadline (`grepTimeoutMs`, documented as the time spent matching) ran from the start of
// the call, so a large tree (100k files took 20 s to walk and read here) stopped a search for
// "hello" with "the regular expression takes too long (nested quantifiers ... backtrack
// exponentially)": a false error blaming a harmless pattern, and the matches found were lost.
// The deadline now counts only the time the pattern spends matching. Fake timers stand in for a
// slow walk: each directory listing moves the clock past the deadline.
let work: string;
let grep: Tool;

beforeEach(async () => {
  work = await makeTempDir('ws-grep-deadline-');
  for (const directory of ['a', 'b', 'c']) {
    await fs.mkdir(path.join(work, directory));
    await fs.writeFile(path.join(work, directory, 'notes.txt'), 'hello\n');
  }
  grep = toolNamed(workspaceTools({ cwd: work, grepTimeoutMs: 1000 }), 'Grep');
});

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await fs.rm(work, { recursive: true, force: true });
});

describe('Grep: a slow walk is not blamed on the pattern', () => {
  it('time spent finding and reading files does not count against the pattern', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const readdir = fs.readdir.bind(fs);
    vi.spyOn(fs, 'readdir').mockImplementation((async (...args: Parameters<typeof fs.readdir>) => {
      const entries = await readdir(...args);
      vi.advanceTimersByTime(5000);
      return entries;
    }) as never);
    const result = await callTool(grep, { pattern: 'hello' });
    expect(result).toMatchObject({ isError: false, text: expect.stringMatching(/^Found 3 files\n/) });
  });

  it('a pattern that really backtracks is still stopped, and named', async () => {
    await fs.writeFile(path.join(work, 'a', 'trap.txt'), `${'a'.repeat(40)}!\n`);
    const result = await callTool(grep, { pattern: '^(a+)+$' });
    expect(result).toMatchObject({ isError: true, text: expect.stringMatching(/stopped after 1000 ms: the regular expression "\^\(a\+\)\+\$" takes too long/) });
  }, 15_000);
});
