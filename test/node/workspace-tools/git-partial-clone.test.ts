// Attack: a "read-only" git command in a partial clone (extensions.partialClone) lazily fetches a
// missing object through the repository's own transport settings — core.sshCommand, a local
// remote's uploadpack, an ext:: remote — which run programs of the repository's choosing.
// GIT_NO_LAZY_FETCH closes that only on git ≥ 2.45 (and the 2.39.4+ … 2.44.1+ security releases);
// older git ignores it, which a `git` on PATH that drops the variable stands in for. A real
// repository with a deleted blob stands in for a partial clone; each transport writes a marker.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { gitSafeEnvironment } from '../../../src/node/workspace-tools/git-safe-environment.js';
import { callTool, fakeAgent, makeTempDir, toolNamed } from './helpers.js';

let base: string;
let work: string;
let marker: string;
/** PATH with a `git` first that behaves like git before 2.45: it ignores GIT_NO_LAZY_FETCH. */
let oldGitPath: string;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd, stdio: 'pipe', env: { ...process.env, GIT_ALLOW_PROTOCOL: undefined } }).toString();
const exists = (file: string) => fs.stat(file).then(() => true, () => false);

beforeEach(async () => {
  base = await makeTempDir('ws-git-partial-');
  work = path.join(base, 'work');
  marker = path.join(base, 'FETCHED');
  await fs.mkdir(work);
  await fs.writeFile(path.join(work, 'f.txt'), 'one\n');
  git(work, 'init', '-q');
  git(work, 'add', 'f.txt');
  git(work, 'commit', '-qm', 'one');
  await fs.writeFile(path.join(work, 'f.txt'), 'two\n');
  git(work, 'commit', '-qam', 'two');
  // The first version of f.txt is "not yet fetched": its loose object is gone.
  const blob = git(work, 'rev-parse', 'HEAD~1:f.txt').trim();
  await fs.rm(path.join(work, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
  git(work, 'config', 'core.repositoryFormatVersion', '1');
  git(work, 'config', 'extensions.partialClone', 'origin');
  git(work, 'config', 'remote.origin.promisor', 'true');
  const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
  await fs.mkdir(path.join(base, 'old-git'));
  await fs.writeFile(path.join(base, 'old-git', 'git'), `#!/bin/sh\nunset GIT_NO_LAZY_FETCH\nexec ${realGit} "$@"\n`, { mode: 0o755 });
  oldGitPath = `${path.join(base, 'old-git')}:${process.env.PATH}`;
});
const tools = () => workspaceTools({ cwd: work, env: { PATH: oldGitPath } });
afterEach(() => fs.rm(base, { recursive: true, force: true }));

/** The ways a repository's config makes a fetch run a program of its choosing. */
const transports: Record<string, () => Promise<void>> = {
  'core.sshCommand': async () => {
    git(work, 'config', 'remote.origin.url', 'ssh://example.invalid/repo');
    git(work, 'config', 'core.sshCommand', `touch ${marker}; false`);
  },
  'remote.origin.uploadpack (a local remote)': async () => {
    git(base, 'init', '-q', '--bare', 'upstream.git');
    git(work, 'config', 'remote.origin.url', path.join(base, 'upstream.git'));
    git(work, 'config', 'remote.origin.uploadpack', `touch ${marker}; false`);
  },
  'an ext:: remote the repository allows': async () => {
    git(work, 'config', 'remote.origin.url', `ext::sh -c touch% ${marker}`);
    git(work, 'config', 'protocol.ext.allow', 'always');
  },
};

const reads = ['git show HEAD~1:f.txt', 'git log -p', 'git diff HEAD~1 HEAD', 'git blame HEAD~1 -- f.txt', 'git show HEAD~1'];

describe('attack: a read of a partial clone reaches no git transport', () => {
  it.each(Object.keys(transports))('without the fix, a plain read on such a git runs the program (%s)', async (transport) => {
    await transports[transport]!();
    const env: Record<string, string | undefined> = { ...gitSafeEnvironment(process.env), PATH: oldGitPath };
    delete env.GIT_ALLOW_PROTOCOL;
    try {
      execFileSync('git', ['show', 'HEAD~1:f.txt'], { cwd: work, stdio: 'pipe', env });
    } catch {
      // the fetch fails after the program ran
    }
    expect(await exists(marker)).toBe(true);
  });

  describe.each(Object.keys(transports))('through %s', (transport) => {
    it.each(reads)('%j is read-only, runs unasked and runs no program of the repository', async (command) => {
      await transports[transport]!();
      const result = await callTool(toolNamed(tools(), 'Bash'), { command }, { agent: fakeAgent('plan') });
      expect(result.check).toEqual({ behavior: 'passthrough' });
      expect(result.stage).toBe('execute');
      expect(await exists(marker)).toBe(false);
    });
  });

  it('plan mode, through the agent: `git log -p` answers (with git’s refusal for the missing object) and fetches nothing', async () => {
    await transports['core.sshCommand']!();
    const asked: string[] = [];
    const results: { isError: boolean; content: unknown }[] = [];
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Bash', { command: 'git log -p' }, 'b1')), 'done']),
      tools: tools(),
      permissionMode: 'plan',
      cwd: work,
      canUseTool: async (name) => (asked.push(name), { behavior: 'deny', message: 'no' }),
    });
    agent.on('tool-result', (event) => results.push(event as never));
    await agent.run('look').result;
    expect(asked).toEqual([]);
    expect(JSON.stringify(results)).toContain("transport 'ssh' not allowed");
    expect(await exists(marker)).toBe(false);
  });

  it('a command the host approves keeps its transports (the fix is only for commands that run unasked)', async () => {
    git(base, 'init', '-q', '--bare', 'upstream.git');
    const bash = toolNamed(tools(), 'Bash');
    const approved = await callTool(bash, { command: 'git ls-remote ../upstream.git && echo "allowed=${GIT_ALLOW_PROTOCOL-unset}"' }, { answer: () => true });
    expect(approved.check).toMatchObject({ behavior: 'ask' });
    expect(approved.isError).toBe(false);
    expect(approved.text).toContain('allowed=unset');
  });

  it('the objects already there still read: only the missing one fails', async () => {
    await transports['core.sshCommand']!();
    const result = await callTool(toolNamed(tools(), 'Bash'), { command: 'git show HEAD:f.txt && git log --oneline' });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('two');
    expect(result.text).toContain('one');
  });
});
