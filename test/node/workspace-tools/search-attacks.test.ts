import { execFileSync } from 'node:child_process';
import fsCallbacks from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import type { Tool } from '../../../src/tools/types.js';
import { callTool, makeTempDir, toolNamed } from './helpers.js';

let work: string;
let glob: Tool;
let grep: Tool;
let read: Tool;

beforeEach(async () => {
  work = await makeTempDir('ws-attacks-');
  const tools = workspaceTools({ cwd: work });
  [glob, grep, read] = ['Glob', 'Grep', 'Read'].map((name) => toolNamed(tools, name)) as [Tool, Tool, Tool];
});

afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

/** A name that is not valid UTF-8: `bad` 0xff 0xfe `.txt`. */
const badName = () => Buffer.concat([Buffer.from(`${work}/bad`), Buffer.from([0xff, 0xfe]), Buffer.from('.txt')]);

describe('names Glob and Grep cannot show as one plain line', () => {
  it('a name holding a newline is shown JSON-quoted, so it is one entry the model can pass back (not two names)', async () => {
    await fs.writeFile(path.join(work, 'a\nb.txt'), 'needle\n');
    await fs.writeFile(path.join(work, 'plain.txt'), 'needle\n');
    const listed = (await callTool(glob, { pattern: '*.txt' })).text.split('\n');
    expect(listed).toContain('"a\\nb.txt"');
    expect(listed).toContain('plain.txt');
    expect(listed).not.toContain('a');
    expect((await callTool(grep, { pattern: 'needle' })).text.split('\n')).toContain('"a\\nb.txt"');
    expect((await callTool(grep, { pattern: 'needle', output_mode: 'content' })).text.split('\n')).toContain('"a\\nb.txt":1:needle');
    // The quoted name, decoded as the model decodes JSON, reads the file.
    expect((await callTool(read, { file_path: JSON.parse('"a\\nb.txt"') })).text).toMatch(/needle/);
  });

  it('a name that is not valid UTF-8 is not listed as a name no tool can open: Glob and Grep say how many and to use Bash', async () => {
    await fs.writeFile(badName(), 'needle\n');
    await fs.writeFile(path.join(work, 'good.txt'), 'needle\n');
    const listed = await callTool(glob, { pattern: '*.txt' });
    expect(listed.text).not.toContain('\uFFFD');
    expect(listed.text).toMatch(/^good\.txt/);
    expect(listed.text).toMatch(/1 entry was left out: its name is not valid UTF-8.*Bash/);
    const searched = await callTool(grep, { pattern: 'needle' });
    expect(searched.text).toMatch(/Found 1 file\ngood\.txt/);
    expect(searched.text).toMatch(/1 entry was left out: its name is not valid UTF-8.*Bash/);
    const none = await callTool(glob, { pattern: 'bad*' });
    expect(none.text).toMatch(/No files found/);
    expect(none.text).toMatch(/not valid UTF-8/);
  });

  it('a directory whose name is not valid UTF-8 is counted too (its files cannot be reached by name)', async () => {
    const directory = Buffer.concat([Buffer.from(`${work}/dir`), Buffer.from([0xc3, 0x28])]);
    await fs.mkdir(directory);
    await fs.writeFile(Buffer.concat([directory, Buffer.from('/inside.txt')]), 'needle\n');
    expect((await callTool(grep, { pattern: 'needle' })).text).toMatch(/No files found\n\n\[1 entry was left out: its name is not valid UTF-8/);
  });

  it('a valid name holding U+FFFD itself is listed and searched like any other', async () => {
    await fs.writeFile(path.join(work, 'ok\uFFFD.txt'), 'needle\n');
    expect((await callTool(glob, { pattern: '*.txt' })).text).toBe('ok\uFFFD.txt');
    expect((await callTool(grep, { pattern: 'needle' })).text).toBe('Found 1 file\nok\uFFFD.txt');
  });
});

describe('trees that fight the walk', () => {
  it('symbolic link loops are not followed: the walk ends, each file once', async () => {
    await fs.mkdir(path.join(work, 'x'));
    await fs.writeFile(path.join(work, 'x', 'f.txt'), 'needle\n');
    await fs.symlink('.', path.join(work, 'loop'));
    await fs.symlink('../x', path.join(work, 'x', 'back'));
    expect((await callTool(grep, { pattern: 'needle' })).text).toBe('Found 1 file\nx/f.txt');
    expect((await callTool(glob, { pattern: '**/*.txt' })).text).toBe('x/f.txt');
    // Named through the loop, the search root is its real directory, once.
    expect((await callTool(grep, { pattern: 'needle', path: 'loop/loop/x/back/back' })).text).toBe('Found 1 file\nx/f.txt');
  });

  it('a very deep tree is walked without recursion limits', async () => {
    const deep = path.join(work, ...Array.from({ length: 300 }, () => 'd'));
    await fs.mkdir(deep, { recursive: true });
    await fs.writeFile(path.join(deep, 'deep.txt'), 'needle\n');
    expect((await callTool(grep, { pattern: 'needle' })).text).toBe(`Found 1 file\n${'d/'.repeat(300)}deep.txt`);
  });

  it('a file removed between the listing and its read is skipped, not an error', async () => {
    for (let index = 0; index < 50; index++) await fs.writeFile(path.join(work, `f${String(index).padStart(2, '0')}.txt`), 'needle\n');
    const searching = callTool(grep, { pattern: 'needle' });
    await fs.rm(path.join(work, 'f49.txt'));
    const result = await searching;
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(/^Found (49|50) files/);
  });

  it('".." and absolute patterns outside the workspace ask first, and a denial searches nothing', async () => {
    for (const pattern of ['../*', `${path.dirname(work)}/*`, 'x/../../*', '/etc/*.conf']) {
      const result = await callTool(glob, { pattern });
      expect(result.stage, pattern).toBe('permission');
      expect(result.check, pattern).toMatchObject({ behavior: 'ask' });
    }
    // A ".." below a glob matches nothing: walked paths never hold "..".
    await fs.writeFile(path.join(work, 'in.txt'), 'x');
    expect((await callTool(glob, { pattern: '**/../*' })).text).toBe('No files found');
    expect((await callTool(grep, { pattern: 'x', glob: '../*' })).text).toBe('No files found');
  });
});

describe('contents that fight Grep', () => {
  it.runIf(process.platform !== 'win32')('a pipe given as the path is refused by name (never opened, so nothing blocks)', async () => {
    execFileSync('mkfifo', [path.join(work, 'pipe')]);
    const result = await callTool(grep, { pattern: 'x', path: 'pipe' });
    expect(result).toMatchObject({ isError: true, text: 'pipe is not a regular file or a directory (a pipe, a socket or a device); Grep searches files and directories.' });
    // Inside a searched directory it is passed over, as every entry that is not a file.
    await fs.writeFile(path.join(work, 'f.txt'), 'x\n');
    expect((await callTool(grep, { pattern: 'x' })).text).toBe('Found 1 file\nf.txt');
  });

  it('a match far into a huge single line is shown around the match, not as the line\'s unrelated beginning', async () => {
    await fs.writeFile(path.join(work, 'huge.txt'), `${'y'.repeat(3_000_000)}NEEDLE-HERE${'z'.repeat(5_000)}\n`);
    const result = await callTool(grep, { pattern: 'NEEDLE-HERE', output_mode: 'content' });
    expect(result.text).toContain('NEEDLE-HERE');
    expect(result.text.length).toBeLessThan(2_000);
    expect(result.text).toMatch(/^huge\.txt:1:\[… 2,?999,?800 characters …\] y+NEEDLE-HERE/);
    // A match near the start still shows the line from its start; a context line too.
    await fs.writeFile(path.join(work, 'huge.txt'), `NEEDLE-HERE${'z'.repeat(5_000)}\n${'w'.repeat(5_000)}\n`);
    const early = await callTool(grep, { pattern: 'NEEDLE-HERE', output_mode: 'content', '-A': 1 });
    expect(early.text).toMatch(/^huge\.txt:1:NEEDLE-HEREz+ \.\.\. \[line truncated\]\nhuge\.txt-2-w{1000} \.\.\. \[line truncated\]$/);
  });

  it('binary files are skipped, case-insensitive matching works', async () => {
    await fs.writeFile(path.join(work, 'blob.bin'), Buffer.from([0, 1, 2, ...Buffer.from('needle')]));
    await fs.writeFile(path.join(work, 'Text.TXT'), 'NeEdLe\n');
    expect((await callTool(grep, { pattern: 'needle' })).text).toBe('No files found');
    expect((await callTool(grep, { pattern: 'needle', '-i': true })).text).toBe('Found 1 file\nText.TXT');
  });
});

describe('directories that change or refuse during the walk', () => {
  it('a directory swapped for a link to an outside directory mid-walk lists nothing outside the workspace', async () => {
    const outside = await makeTempDir('ws-outside-');
    try {
      await fs.writeFile(path.join(outside, 'OUTSIDE-SECRET.txt'), 'needle\n');
      await fs.mkdir(path.join(work, 'sub'));
      await fs.writeFile(path.join(work, 'sub', 'inside.txt'), 'needle\n');
      const sub = path.join(work, 'sub');
      let swapped = false;
      // The swap happens right before the walk first touches sub/ (listed as a directory a moment before).
      const swap = async (target: unknown) => {
        if (swapped || String(target) !== sub) return;
        swapped = true;
        await fs.rename(sub, path.join(work, 'moved'));
        await fs.symlink(outside, sub);
      };
      // The walk opens each directory with the callback API (its descriptor is closed synchronously).
      const realOpen = fsCallbacks.open.bind(fsCallbacks) as (...args: unknown[]) => void;
      const realReaddir = fs.readdir.bind(fs) as (...args: unknown[]) => Promise<unknown>;
      const openSpy = vi.spyOn(fsCallbacks, 'open').mockImplementation(((target: string, ...rest: unknown[]) => {
        void swap(target).then(() => realOpen(target, ...rest));
      }) as unknown as typeof fsCallbacks.open);
      const readdirSpy = vi.spyOn(fs, 'readdir').mockImplementation((async (target: string, ...rest: unknown[]) => {
        await swap(target);
        return realReaddir(target, ...rest);
      }) as unknown as typeof fs.readdir);
      try {
        const listed = await callTool(glob, { pattern: '**/*' });
        expect(swapped).toBe(true);
        expect(listed.text).not.toContain('OUTSIDE-SECRET');
        expect(listed.text).toMatch(/1 directory could not be read \(sub: changed during the search\)/);
      } finally {
        openSpy.mockRestore();
        readdirSpy.mockRestore();
      }
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });

  it('a directory that cannot be read is named in a note, not passed over as if it held nothing', async () => {
    await fs.mkdir(path.join(work, 'locked'));
    await fs.writeFile(path.join(work, 'locked', 'x.txt'), 'needle\n');
    await fs.writeFile(path.join(work, 'open.txt'), 'needle\n');
    const locked = path.join(work, 'locked');
    const realOpen = fsCallbacks.open.bind(fsCallbacks) as (...args: unknown[]) => void;
    const realReaddir = fs.readdir.bind(fs) as (...args: unknown[]) => Promise<unknown>;
    const denied = () => Object.assign(new Error(`EACCES: permission denied, scandir '${locked}'`), { code: 'EACCES' });
    const openSpy = vi.spyOn(fsCallbacks, 'open').mockImplementation(((target: string, ...rest: unknown[]) => {
      if (String(target) !== locked) return realOpen(target, ...rest);
      const callback = rest.at(-1) as (error: Error) => void;
      queueMicrotask(() => callback(denied()));
    }) as unknown as typeof fsCallbacks.open);
    const readdirSpy = vi.spyOn(fs, 'readdir').mockImplementation((async (target: string, ...rest: unknown[]) => {
      if (String(target) === locked) throw denied();
      return realReaddir(target, ...rest);
    }) as unknown as typeof fs.readdir);
    try {
      const searched = await callTool(grep, { pattern: 'needle' });
      expect(searched.text).toMatch(/^Found 1 file\nopen\.txt/);
      expect(searched.text).toMatch(/1 directory could not be read \(locked: EACCES\)/);
      const none = await callTool(glob, { pattern: 'locked/**/*.txt' });
      expect(none.text).toMatch(/No files found/);
      expect(none.text).toMatch(/could not be read/);
    } finally {
      openSpy.mockRestore();
      readdirSpy.mockRestore();
    }
  });
});

describe('context that fights Grep', () => {
  it('huge -C on a file where every line matches costs one pass over the lines, not lines × context', async () => {
    await fs.writeFile(path.join(work, 'many.txt'), 'x\n'.repeat(200_000));
    const result = await callTool(grep, { pattern: '^x', output_mode: 'content', '-C': 1_000_000, head_limit: 3 });
    expect(result.text).toMatch(/^many\.txt:1:x\nmany\.txt:2:x\nmany\.txt:3:x\n\n\[Showing the first 3 of/);
    // Quadratic marking takes many minutes here and fails on the test's timeout; one pass takes
    // milliseconds (no time is asserted: the timeout is far above any load's one pass).
  }, 120_000);
});
