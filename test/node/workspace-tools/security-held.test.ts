// Attacks on the workspace tools and command rules that a security review tried, and that must keep failing.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { classifyBashCommand } from '../../../src/node/workspace-tools/classify-bash-command.js';
import { findCatastrophicCommand } from '../../../src/node/workspace-tools/find-catastrophic-command.js';
import { runShellCommand } from '../../../src/node/workspace-tools/run-shell-command.js';
import { createRuleSet } from '../../../src/permissions/rule-set.js';
import type { Tool } from '../../../src/tools/types.js';
import { callTool, fakeAgent, makeTempDir, toolNamed, waitUntil } from './helpers.js';

let base: string;
let work: string;
let tools: Tool[];
beforeEach(async () => {
  base = await makeTempDir('secrev-held-');
  work = path.join(base, 'work');
  await fs.mkdir(work);
  await fs.mkdir(path.join(base, 'outside'));
  await fs.writeFile(path.join(base, 'outside', 'secret.txt'), 'SECRET\n');
  await fs.writeFile(path.join(work, 'a.txt'), 'hello\n');
  tools = workspaceTools({ cwd: work });
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe('held: classifier says "not read-only"', () => {
  it.each([
    'git log --output=x', 'git diff --out=x', 'git show --output x', 'git -c core.pager=sh log', 'git -C .. status', 'git branch -D x',
    'sort -o x a', 'sort --ou=x a', 'sort -mox a', 'find . -fprint x', 'find . -fls x', 'find . -delete', 'find . -execdir ls ;',
    'ls | tee x', "awk '{print > \"x\"}' a", 'sed -i s/a/b/ a', 'ls | xargs rm', 'rg --pre=sh x', 'tree -o x', 'uniq a b',
    'ls > x', 'ls >| x', 'ls &>> x', 'ls 1<>x', 'ls {fd}>x', 'cat <<EOF\nx\nEOF', 'cat <(ls)', 'ls >(cat)', 'echo $(touch x)', 'echo `touch x`',
    "echo $'\\x41'", 'ls & touch x', 'ls |& tee x', 'ls\\\n; touch x', 'ls;\ttouch x', 'ls\ntouch x', '{ ls; touch x; }', '(ls)', 'x=1 ls',
    'ls $HOME', 'find *', 'less a', 'man ls', 'env touch x', 'command touch x', 'date 010100002030', 'file -C -m x',
  ])('%j', (command) => {
    expect(classifyBashCommand(command).readOnly).toBe(false);
  });
});

describe('held: allow rule `Bash(npm test:*)` is a per-command prefix', () => {
  const rules = createRuleSet({ allow: ['Bash(npm test:*)'] });
  const bash = { name: 'Bash', ruleTarget: { field: 'command', kind: 'command' as const } };
  it.each(['npm test; rm -rf x', 'npm test && rm -rf x', 'npm test | sh', 'npm test $(rm x)', 'npm test `rm x`', 'npm test > x', 'npm testx', 'npm test\nrm x', 'npm test & rm x', 'npm test <(rm x)'])(
    '%j is not allowed',
    (command) => expect(rules.match('allow', bash, { command })).toBeUndefined(),
  );
  it('`npm  test` (double space) and `npm test -- -t x` are allowed', () => {
    expect(rules.match('allow', bash, { command: 'npm  test' })).toBe('Bash(npm test:*)');
    expect(rules.match('allow', bash, { command: 'npm test -- -t x' })).toBe('Bash(npm test:*)');
  });
});

describe('held: catastrophic variants from the brief', () => {
  it.each(['rm -rf / --no-preserve-root', 'rm -r -f /', 'rm -rf "$HOME"', 'sudo rm -rf /', 'rm -rf ~/..', 'rm -rf $HOME/', "sh -c 'rm -rf /'", 'echo `rm -rf ~`', 'nice -n 5 rm -rf /usr'])(
    '%j refused',
    (command) => expect(findCatastrophicCommand(command)).toBeDefined(),
  );
});

describe('held: file tools', () => {
  it('Write/Edit over an existing file without a Read is refused; a stale Read is refused', async () => {
    const agent = fakeAgent('acceptEdits');
    const write = await callTool(toolNamed(tools, 'Write'), { file_path: 'a.txt', content: 'x' }, { agent });
    expect(write.stage).toBe('validate');
    await callTool(toolNamed(tools, 'Read'), { file_path: 'a.txt' }, { agent });
    await fs.writeFile(path.join(work, 'a.txt'), 'HELLO\n');
    await fs.utimes(path.join(work, 'a.txt'), new Date(), new Date(Date.now() + 5000));
    const edit = await callTool(toolNamed(tools, 'Edit'), { file_path: 'a.txt', old_string: 'HELLO', new_string: 'x' }, { agent });
    expect(edit.isError).toBe(true);
    expect(await fs.readFile(path.join(work, 'a.txt'), 'utf8')).toBe('HELLO\n');
  });

  it('Read of a hard link to an outside file is NOT detected (known limitation, needs ln which asks)', async () => {
    await fs.link(path.join(base, 'outside', 'secret.txt'), path.join(work, 'hl'));
    const read = await callTool(toolNamed(tools, 'Read'), { file_path: 'hl' });
    expect(read.check).toEqual({ behavior: 'passthrough' });
    expect(read.text).toContain('SECRET');
  });

  it('paths with trailing slash, //, unicode lookalike, `..` via absolute path all ask or stay inside', async () => {
    for (const file_path of ['../outside/secret.txt/', `${work}//../outside/secret.txt`, `${work}/./../outside/secret.txt`]) {
      const r = await callTool(toolNamed(tools, 'Read'), { file_path });
      expect(r.stage, file_path).toBe('permission');
    }
  });

  it('Glob cannot escape with `..` inside the pattern; Grep glob filter cannot widen the root', async () => {
    expect((await callTool(toolNamed(tools, 'Glob'), { pattern: '{..,x}/outside/*' })).text).not.toContain('secret');
    expect((await callTool(toolNamed(tools, 'Glob'), { pattern: '**/../../outside/*' })).text).not.toContain('secret');
    expect((await callTool(toolNamed(tools, 'Grep'), { pattern: 'SECRET', glob: '../**' })).text).not.toContain('SECRET');
  });
});

describe('held: timeouts kill the whole process group', () => {
  it('a background child of a timed-out command is killed', async () => {
    const pidFile = path.join(work, 'pid');
    const result = await runShellCommand({
      command: `sleep 30 & echo $! > ${pidFile}; sleep 30`,
      cwd: work, shell: '/bin/bash', env: process.env, timeoutMs: 300, maxOutputChars: 1000, signal: new AbortController().signal,
    });
    expect(result.timedOut).toBe(true);
    const pid = Number(await fs.readFile(pidFile, 'utf8'));
    // gone, or a zombie waiting for a reaper (the container's PID 1 may not reap)
    const ended = async () => /State:\s+(Z|gone)/.test(await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => 'State:\tgone'));
    expect(await waitUntil(ended)).toBe(true);
  });
});
