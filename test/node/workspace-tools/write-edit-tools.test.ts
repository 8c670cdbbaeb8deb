import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import type { Tool } from '../../../src/tools/types.js';
import { callTool, failingChown, fakeAgent, makeTempDir, outcomeOf, toolNamed } from './helpers.js';
import { replaceFile } from '../../../src/node/workspace-tools/replace-file.js';
import { keepsOwner } from '../../../src/node/workspace-tools/keeps-owner.js';

let work: string;
let read: Tool;
let write: Tool;
let edit: Tool;
const file = (name: string) => path.join(work, name);

beforeEach(async () => {
  work = await makeTempDir('ws-write-');
  const tools = workspaceTools({ cwd: work });
  [read, write, edit] = [toolNamed(tools, 'Read'), toolNamed(tools, 'Write'), toolNamed(tools, 'Edit')];
  await fs.writeFile(file('a.txt'), 'one\ntwo\nthree\ntwo\n');
});

afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

describe('Write', () => {
  it('is an edit-kind tool', () => {
    expect(write).toMatchObject({ kind: 'edit', readOnly: false, concurrencySafe: false, ruleTarget: { field: 'file_path', kind: 'path' } });
    expect(edit).toMatchObject({ kind: 'edit', readOnly: false, concurrencySafe: false, ruleTarget: { field: 'file_path', kind: 'path' } });
  });

  it('creates a new file and its directories without a read, then allows overwriting it', async () => {
    const agent = fakeAgent();
    const created = await callTool(write, { file_path: 'deep/dir/new.txt', content: 'hello' }, { agent });
    expect(created).toMatchObject({ stage: 'execute', isError: false, text: 'File created successfully at: deep/dir/new.txt' });
    expect(await fs.readFile(file('deep/dir/new.txt'), 'utf8')).toBe('hello');
    const again = await callTool(write, { file_path: 'deep/dir/new.txt', content: 'bye' }, { agent });
    expect(again.text).toBe('The file deep/dir/new.txt has been overwritten.');
  });

  it('reports a path below a file, and a link loop, as clean errors', async () => {
    const below = await callTool(write, { file_path: 'a.txt/inner.txt', content: 'x' });
    expect(below).toMatchObject({ stage: 'execute', isError: true });
    await fs.symlink('loop-b', file('loop-a'));
    await fs.symlink('loop-a', file('loop-b'));
    const loop = await callTool(write, { file_path: 'loop-a', content: 'x' }, { answer: () => true });
    expect(loop).toMatchObject({ stage: 'execute', isError: true, text: expect.stringMatching(/Cannot resolve loop-a/) });
    expect((await callTool(read, { file_path: 'loop-a/x' })).isError).toBe(true);
  });

  it('refuses to overwrite an existing file that was not read', async () => {
    const result = await callTool(write, { file_path: 'a.txt', content: 'x' });
    expect(result).toMatchObject({ stage: 'validate', text: 'File has not been read yet. Read it first before writing to it.' });
    expect(await fs.readFile(file('a.txt'), 'utf8')).toBe('one\ntwo\nthree\ntwo\n');
  });

  it('refuses a stale file at validation (mtime) and at execution (content hash)', async () => {
    const agent = fakeAgent();
    await callTool(read, { file_path: 'a.txt' }, { agent });
    await fs.writeFile(file('a.txt'), 'changed by the user\n');
    await fs.utimes(file('a.txt'), new Date(), new Date(Date.now() + 5000));
    expect((await callTool(write, { file_path: 'a.txt', content: 'x' }, { agent })).text).toMatch(/modified since it was last read/);

    // Same mtime as recorded but different content: only the hash can tell.
    await callTool(read, { file_path: 'a.txt' }, { agent });
    const { mtime } = await fs.stat(file('a.txt'));
    await fs.writeFile(file('a.txt'), 'changed by the user, again\n');
    await fs.utimes(file('a.txt'), mtime, mtime);
    const raw = await write.execute({ input: { file_path: 'a.txt', content: 'x' }, toolUseId: 't', agent, signal: new AbortController().signal });
    expect(outcomeOf(raw)).toMatchObject({ isError: true, text: expect.stringMatching(/modified since it was last read/) });
    expect(await fs.readFile(file('a.txt'), 'utf8')).toBe('changed by the user, again\n');
  });

  it('keeps read state per agent: a fork starts with a copy', async () => {
    const parent = fakeAgent();
    await callTool(read, { file_path: 'a.txt' }, { agent: parent });
    const fork = fakeAgent();
    for (const [key, value] of parent.state) fork.toolState.set(key, value);
    expect((await callTool(write, { file_path: 'a.txt', content: 'from fork' }, { agent: fork })).isError).toBe(false);
    expect((await callTool(write, { file_path: 'a.txt', content: 'stranger' }, { agent: fakeAgent() })).stage).toBe('validate');
  });
});

describe('Edit', () => {
  it('replaces a unique string and allows consecutive edits without a new read', async () => {
    const agent = fakeAgent();
    await callTool(read, { file_path: 'a.txt' }, { agent });
    const first = await callTool(edit, { file_path: 'a.txt', old_string: 'three', new_string: '3' }, { agent });
    expect(first).toMatchObject({ stage: 'execute', isError: false, text: 'The file a.txt has been updated (1 replacement).' });
    const second = await callTool(edit, { file_path: 'a.txt', old_string: 'one', new_string: '1' }, { agent });
    expect(second.isError).toBe(false);
    expect(await fs.readFile(file('a.txt'), 'utf8')).toBe('1\ntwo\n3\ntwo\n');
  });

  it('requires a read first', async () => {
    const result = await callTool(edit, { file_path: 'a.txt', old_string: 'one', new_string: '1' });
    expect(result).toMatchObject({ stage: 'validate', text: expect.stringMatching(/has not been read yet/) });
  });

  it('reports how many times a non-unique string occurs, and replace_all replaces them all', async () => {
    const agent = fakeAgent();
    await callTool(read, { file_path: 'a.txt' }, { agent });
    const ambiguous = await callTool(edit, { file_path: 'a.txt', old_string: 'two', new_string: '2' }, { agent });
    expect(ambiguous).toMatchObject({ stage: 'validate', text: expect.stringMatching(/^Found 2 matches of the string to replace, but replace_all is false/) });
    // The same rule holds at execute time (e.g. the file changed between validation and approval).
    const raw = await edit.execute({ input: { file_path: 'a.txt', old_string: 'two', new_string: '2' }, toolUseId: 't', agent, signal: new AbortController().signal });
    expect(outcomeOf(raw).text).toMatch(/^Found 2 matches/);
    const all = await callTool(edit, { file_path: 'a.txt', old_string: 'two', new_string: '2', replace_all: true }, { agent });
    expect(all.text).toBe('The file a.txt has been updated (2 replacements).');
    expect(await fs.readFile(file('a.txt'), 'utf8')).toBe('one\n2\nthree\n2\n');
  });

  it('reports a missing string, identical strings, a missing file, and creates with an empty old_string', async () => {
    const agent = fakeAgent();
    await callTool(read, { file_path: 'a.txt' }, { agent });
    expect((await callTool(edit, { file_path: 'a.txt', old_string: 'zzz', new_string: 'y' }, { agent })).text).toMatch(/^String to replace not found in file/);
    expect((await callTool(edit, { file_path: 'a.txt', old_string: 'one', new_string: 'one' }, { agent })).text).toMatch(/No changes to make/);
    expect((await callTool(edit, { file_path: 'nope.txt', old_string: 'a', new_string: 'b' }, { agent })).text).toMatch(/File does not exist/);
    const created = await callTool(edit, { file_path: 'fresh.txt', old_string: '', new_string: 'new file\n' }, { agent });
    expect(created.text).toBe('File created successfully at: fresh.txt');
    expect(await fs.readFile(file('fresh.txt'), 'utf8')).toBe('new file\n');
  });

  it('matches LF-written strings in a CRLF file', async () => {
    await fs.writeFile(file('crlf.txt'), 'alpha\r\nbeta\r\ngamma\r\n');
    const agent = fakeAgent();
    await callTool(read, { file_path: 'crlf.txt' }, { agent });
    const result = await callTool(edit, { file_path: 'crlf.txt', old_string: 'alpha\nbeta', new_string: 'A\nB' }, { agent });
    expect(result.isError).toBe(false);
    expect(await fs.readFile(file('crlf.txt'), 'utf8')).toBe('A\r\nB\r\ngamma\r\n');
  });

  it('edits through the same inode (hard links and permissions survive)', async () => {
    await fs.chmod(file('a.txt'), 0o640);
    await fs.link(file('a.txt'), file('hard.txt'));
    const agent = fakeAgent();
    await callTool(read, { file_path: 'a.txt' }, { agent });
    // A file with several hard links is asked about (the other names change too); approved here.
    const denied = await callTool(edit, { file_path: 'a.txt', old_string: 'one', new_string: 'uno' }, { agent });
    expect(denied.check).toMatchObject({ behavior: 'ask', message: expect.stringContaining('2 hard links') });
    await callTool(edit, { file_path: 'a.txt', old_string: 'one', new_string: 'uno' }, { agent, answer: () => true });
    expect(await fs.readFile(file('hard.txt'), 'utf8')).toMatch(/^uno/);
    expect((await fs.stat(file('a.txt'))).mode & 0o777).toBe(0o640);
  });
});

describe('Write and Edit put the new content in place whole', () => {
  const strays = async () => (await fs.readdir(work)).filter((name) => name.startsWith('.tmp-'));

  it('as a new file that replaces the old one at once, with its permission bits; the next edit needs no new read', async () => {
    const agent = fakeAgent();
    await fs.chmod(file('a.txt'), 0o640);
    const before = await fs.stat(file('a.txt'));
    await callTool(read, { file_path: 'a.txt' }, { agent });
    const first = await callTool(edit, { file_path: 'a.txt', old_string: 'three', new_string: 'THREE' }, { agent });
    expect(first.isError).toBe(false);
    const after = await fs.stat(file('a.txt'));
    // Not truncated and rewritten in place (where a crash midway would leave it cut short).
    expect(after.ino).not.toBe(before.ino);
    expect(after.mode & 0o7777).toBe(0o640);
    expect(await fs.readFile(file('a.txt'), 'utf8')).toBe('one\ntwo\nTHREE\ntwo\n');
    const second = await callTool(write, { file_path: 'a.txt', content: 'all new\n' }, { agent });
    expect(second).toMatchObject({ isError: false, text: 'The file a.txt has been overwritten.' });
    expect(await fs.readFile(file('a.txt'), 'utf8')).toBe('all new\n');
    expect((await fs.stat(file('a.txt'))).mode & 0o7777).toBe(0o640);
    expect(await strays()).toEqual([]);
  });

  it('in place for a file with several hard links, so that every name sees the change', async () => {
    const agent = fakeAgent();
    await fs.link(file('a.txt'), file('alias.txt'));
    const before = await fs.stat(file('a.txt'));
    await callTool(read, { file_path: 'a.txt' }, { agent });
    expect((await callTool(edit, { file_path: 'a.txt', old_string: 'three', new_string: 'THREE' }, { agent, answer: () => true })).isError).toBe(false);
    expect(await fs.readFile(file('alias.txt'), 'utf8')).toBe('one\ntwo\nTHREE\ntwo\n');
    expect((await fs.stat(file('a.txt'))).ino).toBe(before.ino);
  });

  // Only root can make a file of another user to try this on; the keepsOwner tests below cover the rule for everyone.
  it.skipIf(process.getuid?.() !== 0)('keeps the owner and group of another user\'s file (an agent running as root on a mounted workspace), also with its set-group-ID bit', async () => {
    const agent = fakeAgent();
    await fs.chown(file('a.txt'), 1234, 5678);
    await fs.chmod(file('a.txt'), 0o2664);
    await callTool(read, { file_path: 'a.txt' }, { agent });
    expect((await callTool(edit, { file_path: 'a.txt', old_string: 'three', new_string: 'THREE' }, { agent })).isError).toBe(false);
    const after = await fs.stat(file('a.txt'));
    expect({ uid: after.uid, gid: after.gid, mode: after.mode & 0o7777 }).toEqual({ uid: 1234, gid: 5678, mode: 0o2664 });
    expect(await fs.readFile(file('a.txt'), 'utf8')).toBe('one\ntwo\nTHREE\ntwo\n');
    expect(await strays()).toEqual([]);
  });

  it.skipIf(process.getuid?.() !== 0)('writes in place when the new file cannot be given the owner (a user namespace that does not map it), rather than failing or changing it', async () => {
    const agent = fakeAgent();
    await fs.chown(file('a.txt'), 1234, 5678);
    const before = await fs.stat(file('a.txt'));
    const chown = await failingChown(file('a.txt'));
    try {
      await callTool(read, { file_path: 'a.txt' }, { agent });
      expect((await callTool(edit, { file_path: 'a.txt', old_string: 'three', new_string: 'THREE' }, { agent })).isError).toBe(false);
      expect(chown).toHaveBeenCalled();
    } finally {
      chown.mockRestore();
    }
    const after = await fs.stat(file('a.txt'));
    expect({ ino: after.ino, uid: after.uid, gid: after.gid }).toEqual({ ino: before.ino, uid: 1234, gid: 5678 });
    expect(await fs.readFile(file('a.txt'), 'utf8')).toBe('one\ntwo\nTHREE\ntwo\n');
    expect(await strays()).toEqual([]);
  });

  it('refuses to replace a file that another file took the place of after it was checked (an editor saving by rename)', async () => {
    const checked = await fs.stat(file('a.txt'));
    await fs.writeFile(file('saved.txt'), 'the user saved this\n');
    await fs.rename(file('saved.txt'), file('a.txt'));
    await expect(replaceFile(file('a.txt'), Buffer.from('ours'), { replacing: checked })).rejects.toThrow(/was replaced by another file meanwhile/);
    expect(await fs.readFile(file('a.txt'), 'utf8')).toBe('the user saved this\n');
    expect(await strays()).toEqual([]);
  });
});

describe('keepsOwner: when a new file can take a file\'s place with its owner and group', () => {
  const user = { uid: 1000, gid: 1000, groups: [1000, 27] };

  it('always for root, and where files have no owner ids', () => {
    expect(keepsOwner({ uid: 1234, gid: 5678 }, { uid: 0, gid: 0, groups: [] })).toBe(true);
    expect(keepsOwner({ uid: 1234, gid: 5678 }, undefined)).toBe(true);
  });

  it('for a user, only for its own files in its own groups: another user\'s file is written in place', () => {
    expect(keepsOwner({ uid: 1000, gid: 1000 }, user)).toBe(true);
    expect(keepsOwner({ uid: 1000, gid: 27 }, user)).toBe(true);
    expect(keepsOwner({ uid: 1000, gid: 999 }, user)).toBe(false);
    expect(keepsOwner({ uid: 1001, gid: 1000 }, user)).toBe(false);
  });
});
