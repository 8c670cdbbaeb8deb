// Attack: PATH shadowing. A workspace directory on the Bash tool's PATH (a host started from
// `npm run`, whose PATH begins with the project's node_modules/.bin; a `bin/` the host added), or a
// relative PATH entry (`.`, `bin`, an empty entry), lets a "read-only" name — ls, cat, git, or the
// `diff` git's pinned external diff runs — start a program of the workspace: in plan mode, unasked.
import { mkdirSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from 'agent-harness/node';
import { decidePermission } from '../../../src/permissions/decide-permission.js';
import { createRuleSet } from '../../../src/permissions/rule-set.js';
import { agentContext } from '../../permissions/fixtures.js';
import { callTool, fakeAgent, makeTempDir, planModeDecision, toolNamed } from './helpers.js';

let base: string;
let work: string;
let marker: string;
const exists = (file: string) => fs.stat(file).then(() => true, () => false);
const systemPath = process.env.PATH ?? '/usr/bin:/bin';

/** Writes an executable that leaves the marker behind. */
async function plant(file: string) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
}

const bashWith = (PATH: string) => toolNamed(workspaceTools({ cwd: work, env: { PATH } }), 'Bash');

beforeEach(async () => {
  base = await makeTempDir('ws-shadow-');
  work = path.join(base, 'work');
  marker = path.join(base, 'SHADOWED');
  await fs.mkdir(path.join(work, 'sub'), { recursive: true });
  await fs.writeFile(path.join(work, 'notes.md'), 'notes\n');
});
afterEach(() => fs.rm(base, { recursive: true, force: true }));

describe('attack: a workspace directory on PATH', () => {
  it.each([
    ['ls', 'ls -la'],
    ['cat', 'cat notes.md'],
    ['git', 'git status'],
    ['diff', 'git diff'],
    ['which', 'which ls'],
    ['wc', 'echo x | wc -l'],
  ])('a workspace program named %s makes %j not read-only: refused in plan mode, asked otherwise, never run unasked', async (name, command) => {
    await plant(path.join(work, 'node_modules', '.bin', name));
    const bash = bashWith(`${path.join(work, 'node_modules', '.bin')}:${systemPath}`);
    expect(await planModeDecision(bash, command, work)).toBe('deny');
    const result = await callTool(bash, { command });
    expect(result.check).toMatchObject({ behavior: 'ask', message: expect.stringContaining('inside the workspace') });
    expect(await exists(marker)).toBe(false);
  });

  it('an allow rule on the read (`Bash(ls:*)`) does not vouch for the workspace program of that name', async () => {
    await plant(path.join(work, 'bin', 'ls'));
    const bash = bashWith(`${path.join(work, 'bin')}:${systemPath}`);
    const outcome = await decidePermission({
      tool: bash,
      toolUseId: 'toolu_rule',
      rawInput: { command: 'ls -la' },
      mode: 'default',
      rules: createRuleSet({ allow: ['Bash(ls:*)'] }),
      signal: new AbortController().signal,
      agent: agentContext('default'),
      emit: () => {},
      cwd: work,
    });
    expect(outcome.decision.behavior).not.toBe('allow');
    expect(await exists(marker)).toBe(false);
  });

  it('the same directory on PATH without such a program changes nothing: `ls` and `cat` stay read-only', async () => {
    await plant(path.join(work, 'node_modules', '.bin', 'jest'));
    const bash = bashWith(`${path.join(work, 'node_modules', '.bin')}:${systemPath}`);
    expect(await planModeDecision(bash, 'ls && cat notes.md', work)).toBe('allow');
    expect((await callTool(bash, { command: 'cat notes.md' }, { agent: fakeAgent('plan') })).text).toBe('notes');
  });

  it('a workspace directory after the system ones does not shadow what the system has', async () => {
    await plant(path.join(work, 'bin', 'ls'));
    expect(await planModeDecision(bashWith(`${systemPath}:${path.join(work, 'bin')}`), 'ls', work)).toBe('allow');
  });

  it('a workspace directory reached through a link is still the workspace', async () => {
    await plant(path.join(work, 'bin', 'cat'));
    await fs.symlink(path.join(work, 'bin'), path.join(base, 'linked-bin'));
    expect(await planModeDecision(bashWith(`${path.join(base, 'linked-bin')}:${systemPath}`), 'cat notes.md', work)).toBe('deny');
  });

  it('a trusted directory whose entry links to a workspace program (`npm link`) does not vouch for it', async () => {
    await plant(path.join(work, 'evil'));
    await fs.mkdir(path.join(base, 'tools'));
    await fs.symlink(path.join(work, 'evil'), path.join(base, 'tools', 'cat'));
    const bash = bashWith(`${path.join(base, 'tools')}:${systemPath}`);
    expect(await planModeDecision(bash, 'cat notes.md', work)).toBe('deny');
    expect((await callTool(bash, { command: 'cat notes.md' })).check).toMatchObject({ message: expect.stringContaining('link to a program inside the workspace') });
  });

  it('a PATH link pointed into the workspace after the tool was made, before its first command, is the workspace', async () => {
    // The PATH is judged at the tool's first command (not when workspaceTools() made it).
    await plant(path.join(work, 'bin', 'cat'));
    await fs.mkdir(path.join(base, 'elsewhere'));
    await fs.symlink(path.join(base, 'elsewhere'), path.join(base, 'linked-bin'));
    const bash = bashWith(`${path.join(base, 'linked-bin')}:${systemPath}`);
    await fs.rm(path.join(base, 'linked-bin'));
    await fs.symlink(path.join(work, 'bin'), path.join(base, 'linked-bin'));
    expect(await planModeDecision(bash, 'cat notes.md', work)).toBe('deny');
    expect((await callTool(bash, { command: 'cat notes.md' })).check).toMatchObject({ behavior: 'ask', message: expect.stringContaining('inside the workspace') });
    expect(await exists(marker)).toBe(false);
  });

  it('plan mode: a program planted after the call was allowed is refused when it would run', async () => {
    const bash = bashWith(`${path.join(work, 'bin')}:${systemPath}`);
    expect(await planModeDecision(bash, 'ls', work)).toBe('allow');
    await plant(path.join(work, 'bin', 'ls'));
    const result = outcomeText(await bash.execute({ input: { command: 'ls' }, toolUseId: 't1', agent: fakeAgent('plan'), signal: new AbortController().signal }));
    expect(result).toContain('Refused: in plan mode only read-only commands run');
    expect(await exists(marker)).toBe(false);
  });

  it('an answer is reused only within one synchronous stretch: a program planted after it is seen at the next question', async () => {
    const bash = bashWith(`${path.join(work, 'bin')}:${systemPath}`);
    expect(bash.isReadOnlyCall!({ command: 'ls' })).toBe(true);
    // The stretch ends (a microtask later); the program is planted without yielding again.
    await Promise.resolve();
    mkdirSync(path.join(work, 'bin'), { recursive: true });
    writeFileSync(path.join(work, 'bin', 'ls'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    expect(bash.isReadOnlyCall!({ command: 'ls' })).toBe(false);
    // And the call, started later, is refused in plan mode.
    const result = outcomeText(await bash.execute({ input: { command: 'ls' }, toolUseId: 't2', agent: fakeAgent('plan'), signal: new AbortController().signal }));
    expect(result).toContain('Refused: in plan mode only read-only commands run');
    expect(await exists(marker)).toBe(false);
  });
});

describe('attack: a relative PATH entry', () => {
  it.each(['.', 'bin', '', './bin'])('PATH entry %j makes commands looked up in PATH not read-only, even with nothing there yet (cd moves it)', async (entry) => {
    const bash = bashWith(`${entry}:${systemPath}`);
    for (const command of ['ls', 'cd sub && ls', 'cat notes.md']) expect(await planModeDecision(bash, command, work)).toBe('deny');
  });

  it('builtins are not looked up: `echo`, `cd`, `pwd`, `test` stay read-only', async () => {
    const bash = bashWith(`.:${systemPath}`);
    expect(await planModeDecision(bash, 'cd sub && pwd && echo hi && test -f ../notes.md', work)).toBe('allow');
  });

  it('a relative entry after the directory that has the program is not reached', async () => {
    expect(await planModeDecision(bashWith(`${systemPath}:.`), 'ls', work)).toBe('allow');
  });

  it('an empty entry runs the working directory\'s program: asked, and the message says why', async () => {
    await plant(path.join(work, 'ls'));
    const result = await callTool(bashWith(`:${systemPath}`), { command: 'ls' });
    expect(result.check).toMatchObject({ behavior: 'ask', message: expect.stringContaining('empty entry') });
    expect(await exists(marker)).toBe(false);
  });
});

function outcomeText(raw: unknown): string {
  return JSON.stringify(raw);
}

describe('attack: a program a read-only command starts in its turn', () => {
  it('a textconv driver of the user\'s own configuration is looked up outside the workspace: a workspace program of its name never runs', async () => {
    const { execFileSync } = await import('node:child_process');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd: work, stdio: 'pipe' });
    const home = path.join(base, 'home');
    await fs.mkdir(home);
    await fs.writeFile(path.join(home, '.gitconfig'), '[diff "conv"]\n\ttextconv = userconv\n');
    await fs.writeFile(path.join(work, '.gitattributes'), 'notes.md diff=conv\n');
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'one');
    await fs.writeFile(path.join(work, 'notes.md'), 'changed\n');
    git('commit', '-qam', 'two');
    // The agent (acceptEdits) may write here; the user's driver names a program by PATH.
    await plant(path.join(work, 'node_modules', '.bin', 'userconv'));
    const bash = toolNamed(workspaceTools({ cwd: work, env: { HOME: home, PATH: `${path.join(work, 'node_modules', '.bin')}:${systemPath}` } }), 'Bash');
    const result = await callTool(bash, { command: 'git log -p' }, { agent: fakeAgent('plan') });
    expect(result.check).toEqual({ behavior: 'passthrough' });
    expect(await exists(marker)).toBe(false);
  });

  it('PATH with nothing but workspace entries runs read-only commands with the system directories, never an empty PATH', async () => {
    const bash = bashWith(`${path.join(work, 'bin')}`);
    const result = await callTool(bash, { command: 'cat notes.md' }, { agent: fakeAgent('plan') });
    expect(result.text).toBe('notes');
  });
});
