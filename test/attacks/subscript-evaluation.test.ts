import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { parseShellCommand } from '../../src/permissions/shell/index.js';
import { classifyBashCommand } from '../../src/node/workspace-tools/classify-bash-command.js';

// bash evaluates the array subscript of a variable name given to a builtin (`test -v`, `[ -v`,
// `printf -v`, …), even from inside single quotes: `test -v 'a[$(cmd)]'` runs cmd. And `printf -v`
// assigns any variable (PATH, CDPATH, GIT_CONFIG_VALUE_n) that the rest of the line then uses.
// Found by an attack run: in plan mode each of these wrote a file.
let base = '';
afterEach(() => fs.rm(base, { recursive: true, force: true }));

/** base/work: a git repository with one commit and one uncommitted change, and a .env; base/secretdir/s.txt outside it. */
async function workspace(): Promise<string> {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'subscript-')));
  const work = path.join(base, 'work');
  await fs.mkdir(path.join(base, 'secretdir'), { recursive: true });
  await fs.mkdir(work);
  await fs.writeFile(path.join(base, 'secretdir', 's.txt'), 'OUTSIDE-SECRET\n');
  await fs.writeFile(path.join(work, '.env'), 'KEY=DOTENV\n');
  await fs.writeFile(path.join(work, 'a.txt'), 'v1\n');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd: work });
  git('init', '-q');
  git('add', 'a.txt');
  git('commit', '-qm', 'init');
  await fs.writeFile(path.join(work, 'a.txt'), 'v2\n');
  return work;
}

async function bash(work: string, command: string, permissionMode: 'plan' | 'default' | 'dontAsk', rules = {}): Promise<string> {
  const model = scriptedModel([turn(toolCall('Bash', { command })), 'Done.']);
  const agent = createAgent({ model, tools: workspaceTools({ cwd: work }), cwd: work, permissionMode, rules });
  await agent.run('Plan something.').result;
  return JSON.stringify(agent.messages);
}

const exists = (file: string) => fs.access(file).then(() => true, () => false);

describe('plan mode never writes through an evaluated subscript or printf -v', () => {
  it.each([
    `test -v 'a[$(touch pwned)]'`,
    `[ -v 'a[$(touch pwned)]' ]`,
    'test -v "a[`touch pwned`]"',
    `printf -v 'a[$(touch pwned)]' %s x`,
    `printf -v GIT_CONFIG_VALUE_3 %s 'touch pwned; :'; git diff`,
    `printf -v GIT_CONFIG_VALUE_0 %s 'touch pwned; false #'; git status`,
  ])('%s', async (command) => {
    const work = await workspace();
    await bash(work, command, 'plan');
    expect(await exists(path.join(work, 'pwned'))).toBe(false);
  });

  it('nothing is written outside the workspace in default (no canUseTool) or dontAsk', async () => {
    const work = await workspace();
    await bash(work, `test -v 'a[$(echo x > ../escaped-default)]'`, 'default');
    await bash(work, `test -v 'a[$(echo x > ../escaped-dontask)]'`, 'dontAsk');
    expect((await fs.readdir(base)).sort()).toEqual(['secretdir', 'work']);
  });
});

describe('reads and catastrophic commands inside a subscript are seen', () => {
  it('a Read(**/.env) deny rule holds', async () => {
    const work = await workspace();
    expect(await bash(work, `test -v 'a[$(cat .env >&2)]'`, 'plan', { deny: ['Read(**/.env)'] })).not.toContain('DOTENV');
    expect(await bash(work, `test -v 'a[$(cat .env >&2)]'`, 'dontAsk', { deny: ['Read(**/.env)'] })).not.toContain('DOTENV');
  });

  it('a file outside the workspace is not read unasked through a CDPATH set with printf -v', async () => {
    const work = await workspace();
    expect(await bash(work, 'printf -v CDPATH %s ..; cd secretdir && cat s.txt', 'plan')).not.toContain('OUTSIDE-SECRET');
  });

  it('the catastrophic-command check refuses what a subscript would run (checked, never run)', async () => {
    const work = await workspace();
    const tool = workspaceTools({ cwd: work }).find((candidate) => candidate.name === 'Bash')!;
    const validate = (command: string) => tool.validateInput!({ input: { command }, toolUseId: 't', agent: {} as never, signal: new AbortController().signal });
    expect(await validate('rm -rf /usr/lib')).toMatch(/Refused/);
    expect(await validate(`test -v 'a[$(rm -rf /usr/lib)]'`)).toMatch(/Refused/);
    expect(await validate('unset "a[`rm -rf /usr/lib`]"')).toMatch(/Refused/);
  });
});

describe('the parser and the classifier', () => {
  it('a quoted word with an expansion in a subscript is expanded at run time, its commands recorded', () => {
    const parsed = parseShellCommand(`test -v 'a[$(touch x) + $(rm y)]'`);
    expect(parsed.commands[0]!.words[2]!.hasExpansion).toBe(true);
    expect(parsed.substitutions).toEqual(['touch x', 'rm y']);
    expect(parseShellCommand(`grep 'a[bc]' file`).commands[0]!.words[1]!.hasExpansion).toBe(false);
  });

  it('test -v / -R and printf -v are not read-only; plain test and printf still are', () => {
    expect(classifyBashCommand('test -v HOME').readOnly).toBe(false);
    expect(classifyBashCommand('[ -R ref ]').readOnly).toBe(false);
    expect(classifyBashCommand('printf -v x %s y').readOnly).toBe(false);
    expect(classifyBashCommand('test -f a.txt && printf "%s\\n" ok').readOnly).toBe(true);
    expect(classifyBashCommand('[ -d src ]').readOnly).toBe(true);
  });
});
