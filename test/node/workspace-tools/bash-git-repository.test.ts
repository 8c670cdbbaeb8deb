// Bash git commands that show contents read the repository git finds, wherever its git directory
// is: a `.git` symbolic link or `gitdir:` file, a `commondir`, an alternate object store, or a
// `core.worktree` can lead outside the workspace, and then the command is asked (attack run:
// `git show HEAD:secret.txt` through a `.git` link ran unasked in plan mode).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { callTool, fakeAgent, makeTempDir, planModeDecision, toolNamed } from './helpers.js';

let base: string;
let work: string;
let other: string;
const SECRET = 'OUTSIDE-SECRET';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd });

beforeEach(async () => {
  base = await makeTempDir('ws-git-repository-');
  work = path.join(base, 'work');
  other = path.join(base, 'other'); // another project, outside the workspace
  await fs.mkdir(work);
  await fs.mkdir(other);
  await fs.writeFile(path.join(other, 'secret.txt'), `${SECRET}\n`);
  git(other, 'init', '-q');
  git(other, 'add', 'secret.txt');
  git(other, 'commit', '-qm', 'init');
  await fs.writeFile(path.join(work, 'notes.md'), 'notes\n');
});
afterEach(() => fs.rm(base, { recursive: true, force: true }));

const bash = () => toolNamed(workspaceTools({ cwd: work }), 'Bash');

/** The Bash tool's own opinion on a command in plan mode (what a host would be asked, with `blockedPath`). */
async function check(command: string) {
  return (await callTool(bash(), { command }, { agent: fakeAgent('plan') })).check;
}

describe('a repository whose git directory is outside the workspace', () => {
  it.each(['git show HEAD:secret.txt', 'git log -p'])('a .git symbolic link: %j is asked with the git directory as blockedPath', async (command) => {
    await fs.symlink(path.join(other, '.git'), path.join(work, '.git'));
    expect(await planModeDecision(bash(), command, work)).not.toBe('allow');
    expect(await check(command)).toMatchObject({ behavior: 'ask', blockedPath: path.join(other, '.git') });
  });

  it.each([['absolute', () => path.join(other, '.git')], ['relative', () => '../other/.git']])('a .git file with an %s gitdir: line is followed', async (_kind, target) => {
    await fs.writeFile(path.join(work, '.git'), `gitdir: ${target()}\n`);
    expect(await planModeDecision(bash(), 'git show HEAD:secret.txt', work)).not.toBe('allow');
    expect(await check('git show HEAD:secret.txt')).toMatchObject({ behavior: 'ask', blockedPath: path.join(other, '.git') });
  });

  it('a .git directory whose commondir is outside (a linked worktree of an outside repository)', async () => {
    await fs.mkdir(path.join(work, '.git'));
    await fs.writeFile(path.join(work, '.git', 'HEAD'), 'ref: refs/heads/master\n');
    await fs.writeFile(path.join(work, '.git', 'commondir'), `${path.join(other, '.git')}\n`);
    expect(await check('git show HEAD:secret.txt')).toMatchObject({ behavior: 'ask', blockedPath: path.join(other, '.git') });
  });

  it('an alternate object store outside', async () => {
    git(work, 'init', '-q');
    await fs.writeFile(path.join(work, '.git', 'objects', 'info', 'alternates'), `${path.join(other, '.git', 'objects')}\n`);
    expect(await check('git log -p')).toMatchObject({ behavior: 'ask', blockedPath: path.join(other, '.git', 'objects') });
  });

  it('a core.worktree setting is not followed, so the command is asked', async () => {
    git(work, 'init', '-q');
    git(work, 'config', 'core.worktree', other);
    const asked = await check('git diff');
    expect(asked).toMatchObject({ behavior: 'ask' });
    expect(asked?.behavior === 'ask' && asked.message).toMatch(/core\.worktree/);
  });

  it('a .git directory that is not a repository does not hide the outside repository above it', async () => {
    git(base, 'init', '-q');
    await fs.mkdir(path.join(work, '.git'));
    expect(await check('git log -p')).toMatchObject({ behavior: 'ask', blockedPath: base });
  });

  it('a plan-mode run never shows the outside file to the model', async () => {
    await fs.symlink(path.join(other, '.git'), path.join(work, '.git'));
    const model = scriptedModel([turn(toolCall('Bash', { command: 'git show HEAD:secret.txt' })), 'done']);
    const agent = createAgent({ model, tools: workspaceTools({ cwd: work }), cwd: work, permissionMode: 'plan' });
    await agent.run('look around').result;
    expect(JSON.stringify(agent.messages)).not.toContain(SECRET);
  });
});

describe('git directories inside the workspace still run unasked', () => {
  it('a .git file pointing into the workspace', async () => {
    await fs.mkdir(path.join(work, 'repo'));
    git(path.join(work, 'repo'), 'init', '-q', '--separate-git-dir', path.join(work, 'meta.git'));
    await fs.writeFile(path.join(work, 'repo', 'a.txt'), 'inside\n');
    git(path.join(work, 'repo'), 'add', 'a.txt');
    git(path.join(work, 'repo'), 'commit', '-qm', 'init');
    const result = await callTool(bash(), { command: 'cd repo && git show HEAD:a.txt' }, { agent: fakeAgent('plan') });
    expect(result.stage).toBe('execute');
    expect(result.text).toContain('inside');
  });

  it('the workspace as its own repository', async () => {
    git(work, 'init', '-q');
    git(work, 'add', 'notes.md');
    git(work, 'commit', '-qm', 'init');
    expect(await planModeDecision(bash(), 'git log -p', work)).toBe('allow');
  });
});
