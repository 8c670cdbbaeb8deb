import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { classifyBashCommand } from '../../src/node/workspace-tools/classify-bash-command.js';

// Lines the read-only list let run unasked in plan mode that read outside the workspace or past a
// Read deny rule (found by an attack run): options hidden in a brace list, symlink-following
// options with a value stuck to them, paths stuck to a short option, and git in a workspace that
// is a folder of a larger repository.
let base = '';
afterEach(() => fs.rm(base, { recursive: true, force: true }));

/** base/work (d1/link -> base/secretdir, sums.txt naming ../secretdir/s.txt, .env); the git repository is base/work or, with `repoAtBase`, base. */
async function setup(repoAtBase = false): Promise<string> {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ro-evasion-')));
  const work = path.join(base, 'work');
  await fs.mkdir(path.join(base, 'secretdir'), { recursive: true });
  await fs.mkdir(path.join(work, 'd1'), { recursive: true });
  await fs.mkdir(path.join(work, 'd2'));
  await fs.writeFile(path.join(base, 'secretdir', 's.txt'), 'OUTSIDE-SECRET\n');
  await fs.writeFile(path.join(work, '.env'), 'KEY=DOTENV\n');
  await fs.writeFile(path.join(work, 'a.txt'), 'v1\n');
  await fs.writeFile(path.join(work, 'sums.txt'), `${'0'.repeat(64)}  ../secretdir/s.txt\n`);
  await fs.symlink('../../secretdir', path.join(work, 'd1', 'link'));
  const repo = repoAtBase ? base : work;
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd: repo });
  git('init', '-q');
  git('add', ...(repoAtBase ? ['work/a.txt', 'secretdir'] : ['a.txt']));
  git('commit', '-qm', 'init');
  await fs.appendFile(path.join(base, 'secretdir', 's.txt'), 'OUTSIDE-LIVE\n');
  return work;
}

async function plan(work: string, command: string, rules = {}): Promise<string> {
  const model = scriptedModel([turn(toolCall('Bash', { command })), 'Done.']);
  const agent = createAgent({ model, tools: workspaceTools({ cwd: work }), cwd: work, permissionMode: 'plan', rules });
  await agent.run('Plan something.').result;
  return JSON.stringify(agent.messages.slice(2));
}

describe('plan mode reads nothing outside the workspace', () => {
  it.each(['diff a.txt {--to-file=BASE/secretdir/s.txt,}', `grep -Re'SECRET.*' .`, 'diff -rNx.git d1 d2', 'diff {-rN,} d1 d2'])('%s', async (template) => {
    const work = await setup();
    expect(await plan(work, template.replaceAll('BASE', base))).not.toContain('OUTSIDE-SECRET');
  });

  it('options hidden in a brace list are seen by the read-only checks', async () => {
    for (const command of ['sha256sum {-c,} sums.txt', 'wc {--files0-from=names.txt,}', 'du {--files0-from=names.txt,}']) expect(classifyBashCommand(command).readOnly, command).toBe(false);
    expect(classifyBashCommand('cat {a,b}.txt').readOnly).toBe(true);
    const work = await setup();
    expect(await plan(work, 'sha256sum {-c,} sums.txt')).not.toContain('s.txt: FAILED');
  });

  it.each(['git show HEAD:secretdir/s.txt', 'git diff', `git diff -- ':(top)secretdir'`, 'git log -p'])('in a folder of a larger repository: %s', async (command) => {
    const work = await setup(true);
    expect(await plan(work, command)).not.toContain('OUTSIDE-');
  });

  it('in a folder of a larger repository, git status (names, not contents) still runs unasked', async () => {
    const work = await setup(true);
    await fs.writeFile(path.join(work, 'a.txt'), 'v2\n');
    expect(await plan(work, 'git status --short')).toContain('a.txt');
  });

  it('git in a workspace that is its own repository still runs unasked', async () => {
    const work = await setup();
    await fs.writeFile(path.join(work, 'a.txt'), 'v2\n');
    expect(await plan(work, 'git diff')).toContain('+v2');
  });
});

describe('a Read(**/.env) deny rule holds for a path stuck to an option', () => {
  it.each(['date -f.env', 'date --file=.env', 'file -m.env a.txt'])('%s', async (command) => {
    const work = await setup();
    expect(await plan(work, command, { deny: ['Read(**/.env)'] })).not.toContain('DOTENV');
  });
});
