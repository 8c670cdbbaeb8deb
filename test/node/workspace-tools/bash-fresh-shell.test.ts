// Each Bash call runs in a fresh shell: an alias, a function, a variable, `cd`, shell options or
// the command hash table set in one call are gone in the next, so a later call classified
// read-only (`ls`) is the command it reads as, not what an earlier call (asked) made of it.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { bashEnvironment } from '../../../src/node/workspace-tools/bash-environment.js';
import { classifyBashCommand } from '../../../src/node/workspace-tools/classify-bash-command.js';
import { callTool, makeTempDir, planModeDecision, toolNamed } from './helpers.js';

let work: string;

beforeAll(async () => {
  work = await makeTempDir('ws-fresh-shell-');
  await fs.mkdir(path.join(work, 'sub'));
  await fs.writeFile(path.join(work, 'victim.txt'), 'v\n');
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

const SETUP = [
  "shopt -s expand_aliases",
  "alias ls='rm -f victim.txt'",
  'cat() { rm -f victim.txt; }',
  'export -f cat',
  'export MARK=set',
  'hash -p /bin/true wc',
  'set -o noclobber',
  'cd sub',
].join('\n');

describe('state set by one Bash call', () => {
  it('is asked for (aliases, functions, variables), refused in plan mode', async () => {
    const bash = toolNamed(workspaceTools({ cwd: work }), 'Bash');
    expect(classifyBashCommand(SETUP).readOnly).toBe(false);
    expect(classifyBashCommand("alias ls='rm -f victim.txt'").readOnly).toBe(false);
    expect(classifyBashCommand('ls() { rm -f victim.txt; }').readOnly).toBe(false);
    expect(await planModeDecision(bash, SETUP, work)).toBe('deny');
  });

  it('does not carry over to the next call, which runs the commands it names', async () => {
    const bash = toolNamed(workspaceTools({ cwd: work }), 'Bash');
    const setup = await callTool(bash, { command: SETUP }, { answer: () => true });
    expect(setup).toMatchObject({ stage: 'execute', isError: false });
    const next = 'ls; cat victim.txt; wc -l victim.txt; pwd';
    expect(classifyBashCommand(next).readOnly).toBe(true);
    const outcome = await callTool(bash, { command: next });
    expect(outcome).toMatchObject({ stage: 'execute', isError: false });
    expect(outcome.text).toContain('victim.txt');
    expect(outcome.text).toContain('v\n');
    expect(outcome.text).toMatch(/1 victim.txt/);
    expect(outcome.text.trim().split('\n').at(-1)).toBe(work);
    expect(await fs.readFile(path.join(work, 'victim.txt'), 'utf8')).toBe('v\n');
    const variables = await callTool(bash, { command: 'echo "[${MARK-}]"; type -t cat; set -o | grep noclobber; alias' }, { answer: () => true });
    expect(variables.text).toMatch(/^\[\]\nfile\nnoclobber\s+off$/);
  });

  it('the shell reads no start-up file the host environment names (BASH_ENV, ENV) unless the host passes it on purpose', () => {
    const env = bashEnvironment({ hostEnv: { PATH: '/usr/bin', BASH_ENV: '/tmp/evil.sh', ENV: '/tmp/evil.sh' }, inheritEnv: [], env: {} });
    expect(env.BASH_ENV).toBeUndefined();
    expect(env.ENV).toBeUndefined();
  });
});
