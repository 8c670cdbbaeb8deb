import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { openCheckedFile } from '../../../src/node/workspace-tools/open-checked-file.js';
import type { Tool } from '../../../src/tools/types.js';
import { callTool, fakeAgent, makeTempDir, outcomeOf, toolNamed } from './helpers.js';

let base: string;
let work: string;
let outside: string;
let tools: Tool[];
const SECRET = 'TOP-SECRET-CONTENT';

beforeEach(async () => {
  base = await makeTempDir('ws-escape-');
  work = path.join(base, 'work');
  outside = path.join(base, 'outside');
  await fs.mkdir(path.join(work, 'inner'), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'secret.txt'), `${SECRET}\n`);
  await fs.writeFile(path.join(outside, 'other.txt'), `${SECRET} other\n`);
  await fs.writeFile(path.join(work, 'inner', 'secret.txt'), 'inside\n');
  await fs.writeFile(path.join(work, 'notes.txt'), 'notes\n');
  await fs.symlink(outside, path.join(work, 'link-out'));
  await fs.symlink(path.join(outside, 'secret.txt'), path.join(work, 'secret-link'));
  await fs.symlink(path.join(outside, 'new.txt'), path.join(work, 'dangling'));
  tools = workspaceTools({ cwd: work });
});

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const outsideFiles = async () => (await fs.readdir(outside)).sort();
const secretUnchanged = async () => expect(await fs.readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);

/** Runs parse, validate and checkPermissions; then `between`; then execute (as if the host approved). */
async function checkThenExecute(tool: Tool, input: unknown, between: () => Promise<void>, agent = fakeAgent()) {
  const parsed = tool.parseInput(input);
  if (!parsed.ok) throw new Error(parsed.issues.join('; '));
  const signal = new AbortController().signal;
  const args = { input: parsed.value, toolUseId: 'toolu_swap', agent, signal };
  expect(await tool.validateInput?.(args)).toBeUndefined();
  const check = await tool.checkPermissions!(args);
  await between();
  return { check, ...outcomeOf(await tool.execute(args)) };
}

describe('escapes from the workspace', () => {
  const escapingPaths = () => [
    ['`..`', '../outside/secret.txt', path.join(outside, 'secret.txt')],
    ['an absolute path', path.join(outside, 'secret.txt'), path.join(outside, 'secret.txt')],
    ['a symbolic link to an outside file', 'secret-link', path.join(outside, 'secret.txt')],
    ['a symbolically linked parent directory', 'link-out/secret.txt', path.join(outside, 'secret.txt')],
    ['`..` after a directory', 'inner/../../outside/secret.txt', path.join(outside, 'secret.txt')],
  ];

  it.each([0, 1, 2, 3, 4])('Read, Write and Edit ask (blockedPath set) and do nothing when denied: case %i', async (index) => {
    const [, input, real] = escapingPaths()[index]!;
    for (const [name, extra] of [
      ['Read', {}],
      ['Write', { content: 'pwned' }],
      ['Edit', { old_string: SECRET, new_string: 'pwned' }],
    ] as const) {
      const result = await callTool(toolNamed(tools, name), { file_path: input, ...extra });
      expect(result.stage, `${name} ${input}`).toBe('permission');
      expect(result.check).toMatchObject({ behavior: 'ask', blockedPath: real });
      expect(result.text).not.toContain(SECRET);
    }
    await secretUnchanged();
    expect(await outsideFiles()).toEqual(['other.txt', 'secret.txt']);
  });

  it('a dangling symbolic link is resolved to where a write would land', async () => {
    const result = await callTool(toolNamed(tools, 'Write'), { file_path: 'dangling', content: 'pwned' });
    expect(result.check).toMatchObject({ behavior: 'ask', blockedPath: path.join(outside, 'new.txt') });
    expect(await outsideFiles()).toEqual(['other.txt', 'secret.txt']);
  });

  it("the host's approval lets an outside path through, with an allow-rule suggestion", async () => {
    const read = await callTool(toolNamed(tools, 'Read'), { file_path: 'link-out/secret.txt' }, { answer: () => true });
    expect(read.stage).toBe('execute');
    expect(read.text).toContain(SECRET);
    // Absolute globs (relative allow globs never reach outside): the link's folder and the real one.
    expect(read.check).toMatchObject({
      suggestions: [{ type: 'addRules', behavior: 'allow', rules: [`Read(${path.join(work, 'link-out')}/**)`, `Read(${outside}/**)`] }],
    });
    const write = await callTool(toolNamed(tools, 'Write'), { file_path: '../outside/created.txt', content: 'ok' }, { answer: () => true });
    expect(write.isError).toBe(false);
    expect(await fs.readFile(path.join(outside, 'created.txt'), 'utf8')).toBe('ok');
  });

  it('Glob and Grep ask for an outside search root and never follow links out of the workspace', async () => {
    const glob = toolNamed(tools, 'Glob');
    const grep = toolNamed(tools, 'Grep');
    expect((await callTool(glob, { pattern: '*', path: '..' })).check).toMatchObject({ behavior: 'ask', blockedPath: base });
    expect((await callTool(glob, { pattern: '../outside/*.txt' })).check).toMatchObject({ behavior: 'ask', blockedPath: outside });
    expect((await callTool(glob, { pattern: '*', path: 'link-out' })).check).toMatchObject({ behavior: 'ask', blockedPath: outside });
    expect((await callTool(grep, { pattern: 'SECRET', path: 'secret-link' })).check).toMatchObject({ behavior: 'ask' });
    const listing = await callTool(glob, { pattern: '**/*' });
    expect(listing.text.split('\n').sort()).toEqual(['dangling', 'inner/secret.txt', 'link-out', 'notes.txt', 'secret-link']);
    const search = await callTool(grep, { pattern: 'SECRET', output_mode: 'content' });
    expect(search.text).toBe('No matches found');
  });

  it('Bash asks when a read-only command names an outside path', async () => {
    const bash = toolNamed(tools, 'Bash');
    for (const command of ['cat ../outside/secret.txt', 'cat secret-link', 'ls link-out/', `grep -r SECRET ${outside}`, 'cd .. && cat outside/secret.txt', 'cat < secret-link', 'grep -f../outside/secret.txt x']) {
      const result = await callTool(bash, { command });
      expect(result.check, command).toMatchObject({ behavior: 'ask' });
      expect(result.stage).toBe('permission');
    }
    // Globs and brace lists are expanded; link-following walks are asked about.
    for (const command of ['cat *', 'cat secret-*', 'head {notes.txt,secret-link}', 'wc -l */secret.txt', 'grep -R SECRET .', 'find -L . -name x', 'rg --follow SECRET', 'ls {1..3}']) {
      expect((await callTool(bash, { command })).check, command).toMatchObject({ behavior: 'ask' });
    }
    expect((await callTool(bash, { command: 'cat inner/* notes.*' })).text).toBe('inside\nnotes');
    expect((await callTool(bash, { command: 'grep -r SECRET .' })).check).toEqual({ behavior: 'passthrough' });
    expect((await callTool(bash, { command: 'cat notes.txt inner/secret.txt' })).text).toBe('notes\ninside');
    expect((await callTool(bash, { command: 'echo /etc/passwd' })).stage).toBe('execute');
  });
});

describe('a path that changes between the check and the execution', () => {
  it('a directory swapped for a link to the outside: Read is refused', async () => {
    await fs.writeFile(path.join(outside, 'secret.txt'), `${SECRET}\n`);
    const result = await checkThenExecute(toolNamed(tools, 'Read'), { file_path: 'inner/secret.txt' }, async () => {
      await fs.rm(path.join(work, 'inner'), { recursive: true });
      await fs.symlink(outside, path.join(work, 'inner'));
    });
    expect(result.check).toEqual({ behavior: 'passthrough' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/Refused/);
    expect(result.text).not.toContain(SECRET);
  });

  it('a file swapped for a link to the outside: Write and Edit are refused, the outside file is untouched', async () => {
    const agent = fakeAgent();
    await callTool(toolNamed(tools, 'Read'), { file_path: 'notes.txt' }, { agent });
    const swap = async () => {
      await fs.rm(path.join(work, 'notes.txt'));
      await fs.symlink(path.join(outside, 'secret.txt'), path.join(work, 'notes.txt'));
    };
    const write = await checkThenExecute(toolNamed(tools, 'Write'), { file_path: 'notes.txt', content: 'pwned' }, swap, agent);
    expect(write).toMatchObject({ isError: true, text: expect.stringMatching(/Refused/) });
    await fs.rm(path.join(work, 'notes.txt'));
    await fs.writeFile(path.join(work, 'notes.txt'), 'notes\n');
    await callTool(toolNamed(tools, 'Read'), { file_path: 'notes.txt' }, { agent });
    const edit = await checkThenExecute(toolNamed(tools, 'Edit'), { file_path: 'notes.txt', old_string: 'notes', new_string: 'pwned' }, swap, agent);
    expect(edit).toMatchObject({ isError: true, text: expect.stringMatching(/Refused/) });
    await secretUnchanged();
  });

  it('an approved outside path swapped to another outside file is refused', async () => {
    await fs.symlink(path.join(outside, 'other.txt'), path.join(work, 'approved-link'));
    const result = await checkThenExecute(toolNamed(tools, 'Write'), { file_path: 'approved-link', content: 'pwned' }, async () => {
      await fs.rm(path.join(work, 'approved-link'));
      await fs.symlink(path.join(outside, 'secret.txt'), path.join(work, 'approved-link'));
    });
    expect(result.check).toMatchObject({ behavior: 'ask', blockedPath: path.join(outside, 'other.txt') });
    expect(result.isError).toBe(true);
    await secretUnchanged();
    expect(await fs.readFile(path.join(outside, 'other.txt'), 'utf8')).toBe(`${SECRET} other\n`);
  });

  it('without a permission check (e.g. an allow rule), a link out of the workspace is refused; a plain outside path is not', async () => {
    const read = toolNamed(tools, 'Read');
    const agent = fakeAgent();
    const run = (file_path: string) => read.execute({ input: { file_path }, toolUseId: 'toolu_rule', agent, signal: new AbortController().signal });
    const viaLink = outcomeOf(await run('link-out/secret.txt'));
    expect(viaLink.isError).toBe(true);
    expect(viaLink.text).not.toContain(SECRET);
    expect(outcomeOf(await run('../outside/secret.txt')).text).toContain(SECRET);
  });

  it('bypassPermissions follows the link', async () => {
    const read = toolNamed(tools, 'Read');
    const raw = await read.execute({ input: { file_path: 'secret-link' }, toolUseId: 'toolu_bypass', agent: fakeAgent('bypassPermissions'), signal: new AbortController().signal });
    expect(outcomeOf(raw).text).toContain(SECRET);
  });

  it('openCheckedFile refuses a file reached through a directory swapped after resolution, and removes what it created', async () => {
    await fs.rm(path.join(work, 'inner'), { recursive: true });
    await fs.symlink(outside, path.join(work, 'inner'));
    const read = await openCheckedFile(path.join(work, 'inner', 'secret.txt'), 'read');
    expect(read).toMatchObject({ ok: false, code: 'ESWAPPED' });
    const created = await openCheckedFile(path.join(work, 'inner', 'fresh.txt'), 'create');
    expect(created).toMatchObject({ ok: false, code: 'ESWAPPED' });
    expect(await outsideFiles()).toEqual(['other.txt', 'secret.txt']);
    const last = await openCheckedFile(path.join(work, 'secret-link'), 'read');
    expect(last).toMatchObject({ ok: false, code: 'ELOOP' });
  });
});
