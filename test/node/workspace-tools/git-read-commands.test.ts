// The git commands classified read-only run unasked, in plan mode too: with the Bash tool's
// environment (GIT_OPTIONAL_LOCKS=0 and the pinned configuration) they must leave the repository
// as it was, .git/index first (its bytes and its mtime). Those that write whatever the
// environment says (`describe --dirty`) or run gpg (`--show-signature`) are asked.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type AgentEvent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { classifyBashCommand } from '../../../src/node/workspace-tools/classify-bash-command.js';
import { makeTempDir } from './helpers.js';

let work: string;
let home: string;
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd: work, stdio: 'pipe', env: { PATH: process.env.PATH, HOME: home } });

/** Every file under `.git` (and the home directory) with its bytes and mtime. */
async function files(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(root, file)] = `${(await fs.stat(file)).mtimeMs} ${(await fs.readFile(file)).toString('base64')}`;
  }
  return out;
}

beforeEach(async () => {
  work = await makeTempDir('ws-git-read-');
  home = await makeTempDir('ws-git-home-');
  await fs.writeFile(path.join(work, 'a.txt'), 'one\n');
  await fs.writeFile(path.join(work, 'b.txt'), 'two\n');
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'init');
  git('tag', '-a', '-m', 'v1', 'v1');
  await fs.writeFile(path.join(work, 'b.txt'), 'three\n');
  git('stash', '-q');
  // Stat-dirty: the same content with other times, so git refreshes the index's stat data.
  await fs.utimes(path.join(work, 'a.txt'), new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'));
});
afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
  await fs.rm(home, { recursive: true, force: true });
});

async function runInPlanMode(commands: string[]) {
  const asked: string[] = [];
  const agent = createAgent({
    model: scriptedModel([turn(...commands.map((command, index) => toolCall('Bash', { command }, `b${index}`))), 'done']),
    tools: workspaceTools({ cwd: work, env: { HOME: home } }),
    permissionMode: 'plan',
    cwd: work,
    canUseTool: async (_name, input) => (asked.push((input as { command: string }).command), { behavior: 'deny', message: 'no' }),
  });
  const results: Array<Extract<AgentEvent, { type: 'tool-result' }>> = [];
  const decisions: Array<Extract<AgentEvent, { type: 'permission-decision' }>> = [];
  agent.on('tool-result', (event) => results.push(event));
  agent.on('permission-decision', (event) => decisions.push(event));
  await agent.run('look around').result;
  return { asked, results, decisions };
}

const READ_ONLY_GIT = [
  'git status',
  'git status -sb --ignored -uall',
  'git diff --stat',
  'git diff HEAD',
  'git log -p -1',
  'git show --stat',
  'git describe',
  'git describe --tags --always --long',
  'git stash list',
  'git stash show -p',
  'git ls-files -m',
  'git blame a.txt',
  'git rev-parse HEAD',
  'git branch -a -v',
];

describe('read-only git commands in a real repository', () => {
  it('run unasked in plan mode and leave .git and the home directory as they were (index bytes and mtime)', async () => {
    for (const command of READ_ONLY_GIT) expect(classifyBashCommand(command), command).toMatchObject({ readOnly: true });
    const before = await files(path.join(work, '.git'));
    const homeBefore = await files(home);
    const { asked, results } = await runInPlanMode(READ_ONLY_GIT);
    expect(asked).toEqual([]);
    expect(results.map((result) => result.isError)).toEqual(READ_ONLY_GIT.map(() => false));
    expect(await files(path.join(work, '.git'))).toEqual(before);
    expect(await files(home)).toEqual(homeBefore);
  });

  it('`git describe --dirty` and `--broken` are not read-only: refused in plan mode, never run, the index untouched', async () => {
    const index = path.join(work, '.git', 'index');
    const before = { bytes: await fs.readFile(index), mtimeMs: (await fs.stat(index)).mtimeMs };
    const { results, decisions } = await runInPlanMode(['git describe --dirty', 'git describe --tags --broken']);
    expect(decisions.map((decision) => [decision.behavior, decision.reason.type])).toEqual([['deny', 'mode'], ['deny', 'mode']]);
    expect(results.every((result) => result.isError)).toBe(true);
    expect(await fs.readFile(index)).toEqual(before.bytes);
    expect((await fs.stat(index)).mtimeMs).toBe(before.mtimeMs);
  });

  /** Makes HEAD a commit with a (bogus) signature: checking it hands it to gpg. */
  function signHead() {
    const raw = execFileSync('git', ['cat-file', 'commit', 'HEAD'], { cwd: work }).toString();
    const signed = raw.replace(/^(committer .*)$/m, '$1\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----');
    const id = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: work, input: signed }).toString().trim();
    git('update-ref', 'HEAD', id);
  }

  it('checking a signed commit runs gpg, which creates ~/.gnupg: `--show-signature` and `%G?` are refused in plan mode', async () => {
    signHead();
    const { asked, decisions } = await runInPlanMode(['git log --show-signature -1', 'git log -1 --format=%G?', 'git log -1 --oneline']);
    expect(asked).toEqual([]);
    expect(decisions.map((decision) => decision.behavior)).toEqual(['deny', 'deny', 'allow']);
    await expect(fs.stat(path.join(home, '.gnupg'))).rejects.toThrow();
  });

  it('a default format the repository sets (format.pretty=%G?) does not make a plain `git log` run gpg', async () => {
    signHead();
    git('config', 'format.pretty', '%h %G?');
    const { asked, results } = await runInPlanMode(['git log -1', 'git show -s']);
    expect(asked).toEqual([]);
    expect(results.map((result) => result.isError)).toEqual([false, false]);
    expect(results.map((result) => String(result.content))).toEqual([expect.stringMatching(/^commit [0-9a-f]{40}/), expect.stringMatching(/^commit [0-9a-f]{40}/)]);
    await expect(fs.stat(path.join(home, '.gnupg'))).rejects.toThrow();
  });
});
