// Attack: programs a repository's own configuration names, run by "read-only" git. The fixed names
// (core.pager, pager.<cmd>, core.fsmonitor, core.hooksPath, diff.external, alias.<builtin>,
// gpg.program, core.sshCommand, …) are pinned or never consulted on reads: each is tried on every
// read the classifier allows and leaves no marker. Drivers — diff.<name>.textconv, .command,
// filter.<name>.clean/.smudge/.process, selected by .gitattributes — have names of the repository's
// choosing and cannot be pinned; they ran (and diff.<name>.cachetextconv wrote refs/notes) unasked,
// in plan mode too. Now a git command in such a repository is refused in plan mode and asked
// otherwise, also past allow rules; a driver from the user's own configuration still runs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { gitDriverProblem } from '../../../src/node/workspace-tools/git-driver-problem.js';
import { decidePermission } from '../../../src/permissions/decide-permission.js';
import { createRuleSet } from '../../../src/permissions/rule-set.js';
import type { PermissionMode } from '../../../src/types/permission.js';
import { agentContext } from '../../permissions/fixtures.js';
import { callTool, fakeAgent, makeTempDir, toolNamed } from './helpers.js';

let base: string;
let work: string;
let marker: string;
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd, stdio: 'pipe' }).toString();
const exists = (file: string) => fs.stat(file).then(() => true, () => false);

/** The reads the classifier lets run unasked, each of which may reach a driver or another configured program. */
const READS = ['git status', 'git diff', 'git diff HEAD~1 HEAD', 'git log -p', 'git show', 'git show HEAD~1', 'git blame f.txt', 'git ls-files -m', 'git stash show -p', 'git shortlog -s HEAD', 'git describe --always', 'git -P log', 'git branch', 'git remote -v'];

beforeEach(async () => {
  base = await makeTempDir('ws-git-drivers-');
  work = path.join(base, 'work');
  marker = path.join(base, 'RAN');
  await fs.mkdir(work);
  git(work, 'init', '-q');
  await fs.writeFile(path.join(work, '.gitattributes'), 'f.txt diff=evil filter=evil\n');
  await fs.writeFile(path.join(work, 'f.txt'), 'one\n');
  git(work, 'add', '.');
  git(work, 'commit', '-qm', 'one');
  await fs.writeFile(path.join(work, 'f.txt'), 'two\n');
  git(work, 'commit', '-qam', 'two');
  git(work, 'stash', 'list');
  // A changed file whose stat data is stale: status and diff read it through the clean filter.
  await fs.writeFile(path.join(work, 'f.txt'), 'three\n');
});
afterEach(() => fs.rm(base, { recursive: true, force: true }));

async function decide(command: string, mode: PermissionMode, allow: string[] = [], env: Record<string, string> = {}) {
  const outcome = await decidePermission({
    tool: toolNamed(workspaceTools({ cwd: work, env }), 'Bash'),
    toolUseId: 'toolu_driver',
    rawInput: { command },
    mode,
    rules: createRuleSet({ allow }),
    signal: new AbortController().signal,
    agent: agentContext(mode),
    emit: () => {},
    cwd: work,
  });
  return outcome.decision.behavior;
}

describe('fixed-name programs of the repository configuration do not run on reads', () => {
  it.each([
    ['core.pager', 'touch MARKER'], ['pager.log', 'touch MARKER'], ['pager.diff', 'touch MARKER'], ['pager.status', 'touch MARKER'], ['pager.show', 'touch MARKER'],
    ['pager.blame', 'touch MARKER'], ['alias.log', '!touch MARKER'], ['alias.status', '!touch MARKER'], ['alias.diff', '!touch MARKER'],
    ['core.fsmonitor', 'touch MARKER; false'], ['diff.external', 'touch MARKER; true'], ['gpg.program', 'touch MARKER'], ['log.showSignature', 'true'],
    ['core.editor', 'touch MARKER'], ['core.askPass', 'touch MARKER'], ['core.sshCommand', 'touch MARKER'], ['interactive.diffFilter', 'touch MARKER'],
  ])('%s', async (key, value) => {
    git(work, 'config', key, value.replace('MARKER', marker));
    const bash = toolNamed(workspaceTools({ cwd: work }), 'Bash');
    for (const command of READS) {
      const result = await callTool(bash, { command }, { agent: fakeAgent('plan') });
      expect(result.check, command).toEqual({ behavior: 'passthrough' });
    }
    expect(await exists(marker)).toBe(false);
  });

  it('hooks: core.hooksPath pinned, and no hook runs on a read', async () => {
    await fs.mkdir(path.join(work, 'hooks'));
    for (const hook of ['post-index-change', 'reference-transaction', 'post-checkout', 'pre-auto-gc', 'fsmonitor-watchman']) {
      await fs.writeFile(path.join(work, 'hooks', hook), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
      await fs.copyFile(path.join(work, 'hooks', hook), path.join(work, '.git', 'hooks', hook));
      await fs.chmod(path.join(work, '.git', 'hooks', hook), 0o755);
    }
    git(work, 'config', 'core.hooksPath', 'hooks');
    const bash = toolNamed(workspaceTools({ cwd: work }), 'Bash');
    for (const command of READS) await callTool(bash, { command }, { agent: fakeAgent('plan') });
    expect(await exists(marker)).toBe(false);
  });
});

describe('attack: a diff or filter driver of the repository configuration', () => {
  const drivers: [string, string][] = [
    ['diff.evil.textconv', `touch ${'MARKER'}; cat`],
    ['diff.evil.command', 'touch MARKER; true'],
    ['filter.evil.clean', 'touch MARKER; cat'],
    ['filter.evil.smudge', 'touch MARKER; cat'],
    ['filter.evil.process', 'touch MARKER'],
  ];

  it.each(drivers)('%s: every git read is refused in plan mode and runs nothing', async (key, value) => {
    git(work, 'config', key, value.replace('MARKER', marker));
    const bash = toolNamed(workspaceTools({ cwd: work }), 'Bash');
    for (const command of READS) {
      const result = await callTool(bash, { command }, { agent: fakeAgent('plan') });
      expect(result.check, command).toMatchObject({ behavior: 'deny', message: expect.stringContaining(key.split('.').pop()!) });
      expect(await decide(command, 'plan'), command).toBe('deny');
    }
    expect(await exists(marker)).toBe(false);
  });

  it('default mode: asked, also when an allow rule names the read; an allow rule does not vouch for the driver', async () => {
    git(work, 'config', 'diff.evil.textconv', `touch ${marker}; cat`);
    expect(await decide('git log -p', 'default')).not.toBe('allow');
    expect(await decide('git log -p', 'default', ['Bash(git log:*)'])).not.toBe('allow');
    const approved = await callTool(toolNamed(workspaceTools({ cwd: work }), 'Bash'), { command: 'git log -p' }, { answer: () => true });
    expect(approved.check).toMatchObject({ behavior: 'ask', safety: true });
    expect(await exists(marker)).toBe(true);
  });

  it('plan mode, allowed past the tool check (an allow rule comes before it): refused when it would run', async () => {
    git(work, 'config', 'diff.evil.textconv', `touch ${marker}; cat`);
    const bash = toolNamed(workspaceTools({ cwd: work }), 'Bash');
    const raw = await bash.execute({ input: { command: 'git log -p' }, toolUseId: 't1', agent: fakeAgent('plan'), signal: new AbortController().signal });
    expect(JSON.stringify(raw)).toContain('Refused in plan mode');
    const results: { isError: boolean; content: unknown }[] = [];
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Bash', { command: 'git log -p' }, 'b1')), 'done']),
      tools: workspaceTools({ cwd: work }),
      permissionMode: 'plan',
      rules: { allow: ['Bash(git log:*)'] },
      cwd: work,
    });
    agent.on('tool-result', (event) => results.push(event as never));
    await agent.run('look').result;
    expect(results).toEqual([expect.objectContaining({ isError: true, content: expect.stringContaining('Refused in plan mode') })]);
    expect(await exists(marker)).toBe(false);
  });

  it('diff.<name>.cachetextconv would write refs/notes/textconv on a read: refused in plan mode, the refs unchanged', async () => {
    git(work, 'config', 'diff.evil.cachetextconv', 'true');
    const refs = git(work, 'for-each-ref');
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Bash', { command: 'git log -p' }, 'b1')), 'done']),
      tools: workspaceTools({ cwd: work, env: { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'diff.evil.textconv', GIT_CONFIG_VALUE_0: 'cat' } }),
      permissionMode: 'plan',
      cwd: work,
    });
    await agent.run('look').result;
    expect(git(work, 'for-each-ref')).toBe(refs);
  });

  it('in a nested repository reached by cd, and in a submodule\'s configuration', async () => {
    const nested = path.join(work, 'vendor');
    await fs.mkdir(nested);
    git(nested, 'init', '-q');
    git(nested, 'config', 'filter.x.clean', `touch ${marker}; cat`);
    expect(await decide('cd vendor && git status', 'plan')).toBe('deny');
    expect(await decide('git status', 'plan')).toBe('allow');
    await fs.mkdir(path.join(work, '.git', 'modules', 'lib', 'inner'), { recursive: true });
    await fs.writeFile(path.join(work, '.git', 'modules', 'lib', 'inner', 'config'), '[diff "x"]\n\ttextconv = evil\n');
    expect(await decide('git status', 'plan')).toBe('deny');
  });

  it.each(['an embedded repository added with git add', 'a submodule not absorbed into .git/modules'])('%s: its driver runs on the superproject\'s `git status`, so that is refused in plan mode', async (kind) => {
    const sub = path.join(work, 'sub');
    await fs.mkdir(sub);
    git(sub, 'init', '-q');
    await fs.writeFile(path.join(sub, '.gitattributes'), '*.txt filter=inner\n');
    await fs.writeFile(path.join(sub, 's.txt'), 'a\n');
    git(sub, 'add', '.');
    git(sub, 'commit', '-qm', 'inner');
    if (kind.startsWith('an embedded')) git(work, 'add', 'sub');
    else git(work, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', './sub', 'sub');
    git(work, 'commit', '-qm', 'with sub');
    expect(await decide('git status', 'plan')).toBe('allow');
    git(sub, 'config', 'filter.inner.clean', `touch ${marker}; cat`);
    await fs.writeFile(path.join(sub, 's.txt'), 'b\n');
    await fs.utimes(path.join(sub, 's.txt'), new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'));
    // The attack is real: git status of the superproject runs the submodule's filter.
    execFileSync('git', ['status'], { cwd: work, stdio: 'pipe' });
    expect(await exists(marker)).toBe(true);
    await fs.rm(marker);
    for (const command of ['git status', 'git diff', 'cd sub && git status']) {
      const result = await callTool(toolNamed(workspaceTools({ cwd: work }), 'Bash'), { command }, { agent: fakeAgent('plan') });
      expect(result.check, command).toMatchObject({ behavior: 'deny', message: expect.stringContaining('clean') });
    }
    expect(await exists(marker)).toBe(false);
  });

  it('a driver in the user\'s own configuration (Git LFS style) is not the repository\'s: reads still run unasked', async () => {
    const home = path.join(base, 'home');
    await fs.mkdir(home);
    await fs.writeFile(path.join(home, '.gitconfig'), '[filter "evil"]\n\tclean = cat\n\tsmudge = cat\n[diff "evil"]\n\ttextconv = cat\n');
    git(work, 'config', 'diff.renames', 'true');
    expect(await gitDriverProblem(work)).toBeUndefined();
    expect(await decide('git status && git log -p', 'plan', [], { HOME: home })).toBe('allow');
    const result = await callTool(toolNamed(workspaceTools({ cwd: work, env: { HOME: home } }), 'Bash'), { command: 'git diff' }, { agent: fakeAgent('plan') });
    expect(result.text).toContain('+three');
  });

  it.each([
    ['[diff "x"] textconv = evil', true],
    ['[Diff "x"]\n\tTextConv=evil', true],
    ['[diff.x]\n\tcommand', true],
    ['[filter "x"]\n\tprocess = y', true],
    ['[include]\n\tpath = other', true],
    ['[includeIf "gitdir:/x/"]\n\tpath = other', true],
    ['[diff]\n\trenames = true\n\texternal = x', false],
    ['[diff "x"]\n\txfuncname = ^fn', false],
    ['[core]\n\tbare = false\n[filter]\n\tnothing = 1', false],
  ])('the configuration %j is a reason: %s', async (text, reason) => {
    await fs.writeFile(path.join(work, '.git', 'config'), `[core]\n\trepositoryformatversion = 0\n${text}\n`);
    expect((await gitDriverProblem(work)) !== undefined).toBe(reason);
  });
});
