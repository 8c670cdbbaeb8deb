// Replaces node:fs/promises (vi.mock): runs in the isolated project (vitest.config.ts ISOLATED).
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Errors the file system gives for the next temporary file's creation or rename, by code. */
const failures: { open?: string; rename?: string } = {};

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const fail = (code: string, call: string) => Object.assign(new Error(`${code}: ${call}`), { code });
  const open: typeof real.open = (async (file: Parameters<typeof real.open>[0], ...rest: unknown[]) => {
    if (failures.open && String(file).includes(`${path.sep}.tmp-`)) throw fail(failures.open, `open '${String(file)}'`);
    return (real.open as (...args: unknown[]) => ReturnType<typeof real.open>)(file, ...rest);
  }) as typeof real.open;
  const rename: typeof real.rename = async (from, to) => {
    if (failures.rename) throw fail(failures.rename, `rename '${String(from)}' -> '${String(to)}'`);
    return real.rename(from, to);
  };
  return { ...real, open, rename, default: { ...real, open, rename } };
});

const fs = (await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises'));
const { workspaceTools } = await import('../../../src/node/workspace-tools.js');
const { callTool, fakeAgent, makeTempDir, toolNamed } = await import('./helpers.js');

let work: string;
const file = (name: string) => path.join(work, name);
const strays = async () => (await fs.readdir(work)).filter((name) => name.startsWith('.tmp-'));

beforeEach(async () => {
  work = await makeTempDir('ws-fallback-');
  await fs.writeFile(file('a.txt'), 'one\ntwo\nthree\n');
});

afterEach(async () => {
  delete failures.open;
  delete failures.rename;
  await fs.rm(work, { recursive: true, force: true });
});

async function editA(): Promise<{ isError: boolean; text: string }> {
  const tools = workspaceTools({ cwd: work });
  const agent = fakeAgent();
  await callTool(toolNamed(tools, 'Read'), { file_path: 'a.txt' }, { agent });
  return callTool(toolNamed(tools, 'Edit'), { file_path: 'a.txt', old_string: 'three', new_string: 'THREE' }, { agent });
}

describe('Write and Edit write in place a file that cannot be replaced by a new one', () => {
  it.each([
    ['its directory takes no new file (EACCES)', 'open', 'EACCES'],
    ['its directory is immutable (EPERM)', 'open', 'EPERM'],
    ['it is a mount point of its own, a file bind-mounted into a container (EBUSY)', 'rename', 'EBUSY'],
    ['the rename would cross file systems (EXDEV)', 'rename', 'EXDEV'],
  ] as const)('when %s', async (_, call, code) => {
    const before = await fs.stat(file('a.txt'));
    failures[call] = code;
    const edited = await editA();
    expect(edited.isError).toBe(false);
    expect(await fs.readFile(file('a.txt'), 'utf8')).toBe('one\ntwo\nTHREE\n');
    expect((await fs.stat(file('a.txt'))).ino).toBe(before.ino);
    expect(await strays()).toEqual([]);
  });

  it('but not when the disk is full: the call fails with the error and the file is left whole (in place, it would be lost)', async () => {
    failures.open = 'ENOSPC';
    // Thrown by the tool: the loop answers the call with it as an error result.
    await expect(editA()).rejects.toThrow(/ENOSPC/);
    expect(await fs.readFile(file('a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(await strays()).toEqual([]);
  });
});

describe('a rewind puts back in place a file that cannot be replaced by a new one', () => {
  it.each([
    ['EACCES', 'open'],
    ['EBUSY', 'rename'],
  ] as const)('(%s)', async (code, call) => {
    const { restoreWorkspaceFile } = await import('../../../src/node/workspace-tools/restore-file.js');
    const before = await fs.stat(file('a.txt'));
    failures[call] = code;
    await restoreWorkspaceFile({ path: file('a.txt'), content: Buffer.from('earlier\n').toString('base64'), agent: fakeAgent() });
    expect(await fs.readFile(file('a.txt'), 'utf8')).toBe('earlier\n');
    expect((await fs.stat(file('a.txt'))).ino).toBe(before.ino);
    expect(await strays()).toEqual([]);
  });
});
