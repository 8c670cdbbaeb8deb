// Regression tests: "read-only" git must not run programs configured by a repository, and the
// agent must not be able to change a repository's configuration without the host.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { gitSafeEnvironment, PINNED_GIT_CONFIG } from '../../../src/node/workspace-tools/git-safe-environment.js';
import { callTool, fakeAgent, makeTempDir, toolNamed } from './helpers.js';

let work: string;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd, stdio: 'pipe' });
const exists = (file: string) => fs.stat(file).then(() => true, () => false);

beforeEach(async () => {
  work = await makeTempDir('ws-git-');
  await fs.writeFile(path.join(work, 'f.txt'), 'a\n');
  git(work, 'init', '-q');
  git(work, 'add', 'f.txt');
  git(work, 'commit', '-qm', 'init');
});
afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

describe('gitSafeEnvironment', () => {
  it('appends its entries after existing GIT_CONFIG_COUNT entries and pins pagers', () => {
    const env = gitSafeEnvironment({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'x', GIT_EXTERNAL_DIFF: 'evil', PAGER: 'less' });
    expect(env.GIT_CONFIG_KEY_0).toBe('user.name');
    expect(env.GIT_CONFIG_KEY_1).toBe('core.fsmonitor');
    expect(env.GIT_CONFIG_COUNT).toBe(String(1 + PINNED_GIT_CONFIG.length));
    expect(env.GIT_EXTERNAL_DIFF).toBeUndefined();
    expect([env.GIT_PAGER, env.PAGER]).toEqual(['cat', 'cat']);
    expect(env.GIT_OPTIONAL_LOCKS).toBe('0');
    // A partial clone's missing object is not fetched by a read (git ≥ 2.45 honours it).
    expect(env.GIT_NO_LAZY_FETCH).toBe('1');
    expect(gitSafeEnvironment({ GIT_CONFIG_COUNT: 'bogus' }).GIT_CONFIG_KEY_0).toBe('core.fsmonitor');
  });
});

describe('the Bash tool pins git configuration', () => {
  it('plan mode: `git status` in a nested repository does not run its core.fsmonitor', async () => {
    const nested = path.join(work, 'vendor');
    await fs.mkdir(nested);
    git(nested, 'init', '-q');
    await fs.writeFile(path.join(nested, 'x'), 'x');
    git(nested, 'add', 'x');
    git(nested, 'commit', '-qm', 'x');
    git(nested, 'config', 'core.fsmonitor', 'touch ../PWNED-PLAN; false');
    const asked: string[] = [];
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Bash', { command: 'cd vendor && git status' }, 'b1')), 'done']),
      tools: workspaceTools({ cwd: work }),
      permissionMode: 'plan',
      cwd: work,
      canUseTool: async (name) => (asked.push(name), { behavior: 'deny', message: 'no' }),
    });
    await agent.run('look around').result;
    expect(asked).toEqual([]);
    expect(await exists(path.join(work, 'PWNED-PLAN'))).toBe(false);
  });

  it('plan mode: `git status` and `git diff` on a file whose stat data changed do not write .git/index back', async () => {
    // Same content, other times: git refreshes the index's stat data and, with its optional lock, writes the index back.
    await fs.utimes(path.join(work, 'f.txt'), new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'));
    const index = path.join(work, '.git', 'index');
    const before = { bytes: await fs.readFile(index), mtimeMs: (await fs.stat(index)).mtimeMs };
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Bash', { command: 'git status --porcelain && git diff --stat' }, 'b1')), 'done']),
      tools: workspaceTools({ cwd: work }),
      permissionMode: 'plan',
      cwd: work,
      canUseTool: async () => ({ behavior: 'deny', message: 'no' }),
    });
    const events: { type: string; isError?: boolean }[] = [];
    agent.on('tool-result', (event) => events.push(event));
    await agent.run('look around').result;
    expect(events).toEqual([expect.objectContaining({ toolUseId: 'b1', isError: false })]);
    expect(await fs.readFile(index)).toEqual(before.bytes);
    expect((await fs.stat(index)).mtimeMs).toBe(before.mtimeMs);
    expect(await exists(path.join(work, '.git', 'index.lock'))).toBe(false);
  });

  it('`git diff` does not run diff.external, core.pager or hooks from the repository config, and still shows the change', async () => {
    git(work, 'config', 'diff.external', 'touch PWNED-DIFF; true');
    git(work, 'config', 'core.pager', 'touch PWNED-PAGER; cat');
    git(work, 'config', 'core.hooksPath', 'hooks');
    await fs.writeFile(path.join(work, 'f.txt'), 'b\n');
    const result = await callTool(toolNamed(workspaceTools({ cwd: work }), 'Bash'), { command: 'git diff && git --no-pager log -1 && git status' });
    expect(result.check).toEqual({ behavior: 'passthrough' });
    expect(result.text).toContain('-a');
    expect(result.text).toContain('+b');
    expect(await exists(path.join(work, 'PWNED-DIFF'))).toBe(false);
    expect(await exists(path.join(work, 'PWNED-PAGER'))).toBe(false);
  });
});

describe('writes into .git ask in every mode', () => {
  it('acceptEdits: editing .git/config is asked, so `git diff` cannot be turned into a command', async () => {
    const asked: string[] = [];
    const agent = createAgent({
      model: scriptedModel([
        turn(toolCall('Read', { file_path: 'f.txt' }, 'r0'), toolCall('Read', { file_path: '.git/config' }, 'r1')),
        turn(toolCall('Edit', { file_path: 'f.txt', old_string: 'a', new_string: 'b' }, 'e0')),
        turn(toolCall('Edit', { file_path: '.git/config', old_string: '[core]', new_string: '[diff]\n\texternal = "touch PWNED-ACCEPT-EDITS; true"\n[core]' }, 'e1')),
        turn(toolCall('Bash', { command: 'git diff' }, 'b1')),
        'done',
      ]),
      tools: workspaceTools({ cwd: work }),
      permissionMode: 'acceptEdits',
      cwd: work,
      canUseTool: async (name) => (asked.push(name), { behavior: 'deny', message: 'no' }),
    });
    await agent.run('go').result;
    expect(asked).toEqual(['Edit']);
    expect(await fs.readFile(path.join(work, '.git', 'config'), 'utf8')).not.toContain('PWNED');
    expect(await exists(path.join(work, 'PWNED-ACCEPT-EDITS'))).toBe(false);
  });

  it.each(['.git/hooks/pre-commit', 'sub/.git', '.GIT/config', 'a/.git./config'])('Write %s asks with a clear message', async (file_path) => {
    const result = await callTool(toolNamed(workspaceTools({ cwd: work }), 'Write'), { file_path, content: 'x' });
    expect(result.stage).toBe('permission');
    expect(result.check).toMatchObject({ behavior: 'ask', message: expect.stringContaining('inside a git directory') });
  });

  it('a link to .git is asked too, and an approved write goes through', async () => {
    await fs.symlink(path.join(work, '.git'), path.join(work, 'g'));
    const write = toolNamed(workspaceTools({ cwd: work }), 'Write');
    expect((await callTool(write, { file_path: 'g/description2', content: 'x' })).stage).toBe('permission');
    const agent = fakeAgent('acceptEdits');
    const approved = await callTool(write, { file_path: '.git/description2', content: 'x' }, { agent, answer: () => true });
    expect(approved.isError).toBe(false);
    expect(await fs.readFile(path.join(work, '.git', 'description2'), 'utf8')).toBe('x');
  });
});

describe('bare repositories', () => {
  it('a bare repository in the workspace (written as plain files) is not used implicitly', async () => {
    git(work, 'init', '-q', '--bare', 'bare.git');
    const result = await callTool(toolNamed(workspaceTools({ cwd: work }), 'Bash'), { command: 'cd bare.git && git log' });
    expect(result.check).toEqual({ behavior: 'passthrough' });
    expect(result.text).toContain('safe.bareRepository');
  });
});
