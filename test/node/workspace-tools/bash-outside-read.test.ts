// Regression tests (security review): read-only Bash commands must not read outside the
// workspace without asking. Each command here used to run and print the outside secret.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { classifyBashCommand } from '../../../src/node/workspace-tools/classify-bash-command.js';
import type { Tool } from '../../../src/tools/types.js';
import { callTool, makeTempDir, toolNamed } from './helpers.js';

let base: string;
let work: string;
let outside: string;
let tools: Tool[];
const SECRET = 'TOP-SECRET-CONTENT';

beforeEach(async () => {
  base = await makeTempDir('ws-outside-read-');
  work = path.join(base, 'work');
  outside = path.join(base, 'outside');
  await fs.mkdir(path.join(work, 'inner'), { recursive: true });
  await fs.mkdir(path.join(work, 'empty'));
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'secret.txt'), `${SECRET}\n`);
  await fs.writeFile(path.join(work, 'notes.txt'), 'notes\n');
  tools = workspaceTools({ cwd: work });
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const bash = (command: string) => callTool(toolNamed(tools, 'Bash'), { command });

/** Not run without the host: either not read-only, or read-only with a path the host is asked about. */
async function expectAsked(command: string) {
  const result = await bash(command);
  expect(result.stage, command).toBe('permission');
  expect(result.check?.behavior, command).toBe('ask');
  expect(result.text, command).not.toContain(SECRET);
}

describe('read-only Bash asks before reading outside the workspace', () => {
  it('cd with options, `cd -`, and cd through a link then `..`', async () => {
    await fs.symlink(work, path.join(work, 'inner', 'self'));
    for (const command of ['cd -P ../outside && cat secret.txt', 'cd -- ../outside && cat secret.txt', 'cd -L .. && cat outside/secret.txt', 'cd - && cat secret.txt', 'cd -P inner/self/.. && cat outside/secret.txt', 'cd -x inner']) {
      await expectAsked(command);
    }
    expect((await bash('cd -P inner && ls')).stage).toBe('execute');
  });

  it('tilde prefixes other than `~` and `~/` (`~+`, `~-`, `~user`)', async () => {
    for (const command of ['cat ~+/../outside/secret.txt', 'ls -d ~root', 'cat ~-/x', 'grep --file=~+/../outside/secret.txt x notes.txt']) await expectAsked(command);
  });

  it('`..` after a symbolic link is resolved physically (as the kernel does)', async () => {
    await fs.symlink(work, path.join(work, 'inner', 'self'));
    await expectAsked('cat inner/self/../outside/secret.txt');
    expect((await bash('cat inner/self/notes.txt')).text).toContain('notes');
  });

  it('date --file / --reference (and abbreviations) are path-checked', async () => {
    for (const command of ['date --file=../outside/secret.txt', 'date --fi=../outside/secret.txt', 'date -f ../outside/secret.txt', 'date -f../outside/secret.txt', 'date -r ../outside/secret.txt', 'date --reference=../outside/secret.txt']) {
      await expectAsked(command);
    }
    expect((await bash('date +%s')).stage).toBe('execute');
  });

  it('--files0-from (file names from a file or stdin) is not read-only', async () => {
    for (const command of ["printf '../outside/secret.txt\\0' | sort --files0-from=-", "printf 'x\\0' | wc -c --files0-from=-", 'du --files0=list', 'find -files0-from list']) {
      expect(classifyBashCommand(command).readOnly, command).toBe(false);
      await expectAsked(command);
    }
    expect(classifyBashCommand('rg --files -g "*.ts"').readOnly).toBe(true);
  });

  it('globbed arguments of echo/printf/basename are checked', async () => {
    for (const command of ['echo ../outside/*', "printf '%s\\n' ../outside/*", 'basename -a ../outside/*']) await expectAsked(command);
    expect((await bash('echo *.txt ../outside/secret.txt')).stage).toBe('execute');
  });

  it('diff -r and GNU abbreviations of link-following options (grep --deref)', async () => {
    await fs.symlink(outside, path.join(work, 'inner', 'out'));
    for (const command of ['diff -rN empty inner', 'diff --recursive empty inner', 'grep --deref SECRET inner', 'ls --deref inner/out', 'rg --fol SECRET inner']) await expectAsked(command);
  });

  it('POSIX bracket classes ask; a glob segment starting with `.` may match `..`', async () => {
    await fs.symlink(outside, path.join(work, 'link-out'));
    await expectAsked('cat [[:alpha:]]ink-out/secret.txt');
    tools = workspaceTools({ cwd: work, shell: '/bin/sh' });
    await expectAsked('cat .*/outside/secret.txt');
  });
});

describe('end to end, in plan mode', () => {
  it.each([
    'cd -P ../outside && cat secret.txt',
    "printf '../outside/secret.txt\\0' | sort --files0-from=-",
    'cat ~+/../outside/secret.txt',
    'date --file=../outside/secret.txt',
  ])('%s never shows the secret', async (command) => {
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Bash', { command }, 'b1')), 'done']),
      tools: workspaceTools({ cwd: work }),
      permissionMode: 'plan',
      cwd: work,
      canUseTool: async () => ({ behavior: 'deny', message: 'no' }),
    });
    await agent.run('look').result;
    expect(JSON.stringify((agent.snapshot() as { messages: unknown[] }).messages)).not.toContain(SECRET);
  });
});
