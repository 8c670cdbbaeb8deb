import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryTool } from '../../src/context/memory/memory-tool.js';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { fileMemoryStore } from '../../src/node/file-memory-store.js';
import { memoryToolContract, run } from '../context/memory/memory-tool-contract.js';

let base: string;
let dir: string;
let outside: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'memory-store-'));
  dir = path.join(base, 'memories');
  outside = path.join(base, 'outside');
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'top secret');
});
afterEach(() => rm(base, { recursive: true, force: true }));

memoryToolContract('fileMemoryStore', () => fileMemoryStore({ dir: path.join(base, `store-${Math.random().toString(36).slice(2)}`) }));

describe('fileMemoryStore', () => {
  it('needs a directory', () => {
    expect(() => fileMemoryStore({ dir: '' })).toThrow(ConfigurationError);
  });

  it('keeps notes in files under its directory, created private, across store objects', async () => {
    await run(memoryTool({ store: fileMemoryStore({ dir }) }), { command: 'create', path: '/memories/people/ada.md', file_text: 'Prefers short answers.' });
    expect(await readFile(path.join(dir, 'people/ada.md'), 'utf8')).toBe('Prefers short answers.');
    if (process.platform !== 'win32') {
      expect((await stat(path.join(dir, 'people/ada.md'))).mode & 0o777).toBe(0o600);
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
    }
    const later = memoryTool({ store: fileMemoryStore({ dir }) });
    expect((await run(later, { command: 'view', path: '/memories/people/ada.md' })).text).toContain('\tPrefers short answers.');
    await run(later, { command: 'str_replace', path: '/memories/people/ada.md', old_str: 'short', new_str: 'brief' });
    // The atomic replace leaves no temporary file behind.
    expect(await readdir(path.join(dir, 'people'))).toEqual(['ada.md']);
  });

  describe('never follows a symbolic link out of the directory', () => {
    const attempts = (link: string) => [
      { command: 'view', path: `/memories/${link}` },
      { command: 'view', path: `/memories/${link}/secret.txt` },
      { command: 'create', path: `/memories/${link}/planted.md`, file_text: 'pwned' },
      { command: 'str_replace', path: `/memories/${link}`, old_str: 'top', new_str: 'pwned' },
      { command: 'str_replace', path: `/memories/${link}/secret.txt`, old_str: 'top', new_str: 'pwned' },
      { command: 'insert', path: `/memories/${link}/secret.txt`, insert_line: 0, insert_text: 'pwned' },
      { command: 'delete', path: `/memories/${link}/secret.txt` },
      { command: 'rename', old_path: `/memories/${link}/secret.txt`, new_path: '/memories/stolen.txt' },
      { command: 'rename', old_path: '/memories/mine.md', new_path: `/memories/${link}/planted.md` },
    ];

    it.skipIf(process.platform === 'win32')('a link to a directory outside, or to a file outside, is refused for every command', async () => {
      const tool = memoryTool({ store: fileMemoryStore({ dir }) });
      await run(tool, { command: 'create', path: '/memories/mine.md', file_text: 'mine' });
      await symlink(outside, path.join(dir, 'door'));
      await symlink(path.join(outside, 'secret.txt'), path.join(dir, 'secret-link'));
      for (const link of ['door', 'secret-link']) {
        for (const input of attempts(link)) {
          const answer = await run(tool, input);
          if (!answer.error) expect.fail(`${JSON.stringify(input)} succeeded: ${answer.text}`);
          expect(answer.text, JSON.stringify(input)).not.toContain('top secret');
        }
      }
      expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
      expect(await readdir(outside)).toEqual(['secret.txt']);
      // The refusal says why.
      expect((await run(tool, { command: 'view', path: '/memories/door/secret.txt' })).text).toContain('/memories/door is a symbolic link');
      // Links are not listed either.
      const listing = (await run(tool, { command: 'view', path: '/memories' })).text;
      expect(listing).not.toContain('door');
      expect(listing).not.toContain('secret-link');
      // Deleting a directory that holds a link removes the link, not what it points to.
      await mkdir(path.join(dir, 'box'));
      await symlink(outside, path.join(dir, 'box', 'inner'));
      expect((await run(tool, { command: 'delete', path: '/memories/box' })).error).toBe(false);
      expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    });

    it.skipIf(process.platform === 'win32')('a memory directory that is itself a link is refused', async () => {
      await symlink(outside, dir);
      await expect(run(memoryTool({ store: fileMemoryStore({ dir }) }), { command: 'view', path: '/memories' })).rejects.toThrow(ConfigurationError);
    });

    it.skipIf(process.platform === 'win32')('a FIFO or other special file is neither read nor listed', async () => {
      const { execFileSync } = await import('node:child_process');
      await mkdir(dir, { recursive: true });
      execFileSync('mkfifo', [path.join(dir, 'pipe')]);
      const tool = memoryTool({ store: fileMemoryStore({ dir }) });
      expect((await run(tool, { command: 'view', path: '/memories/pipe' })).error).toBe(true);
      expect((await run(tool, { command: 'view', path: '/memories' })).text).not.toContain('pipe');
    });
  });
});
