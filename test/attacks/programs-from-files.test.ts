// Attack class: a "read-only" Bash command that runs a program the workspace wrote — a script, a
// Makefile, an awk or sed program file, a wrapper that runs its arguments, git told to run
// something by `-c` or the environment — or a workspace program put in place of a read-only name
// through PATH (an assignment, `export`, a relative path, hash/alias/BASH_ENV). Each program here
// leaves a marker when it runs. The real pipeline decides: never allowed unasked in plan mode, asked
// (not allowed) in default mode even with allow rules on the names it pretends to be; and a plan
// mode run of all of them through the agent leaves no marker.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { decidePermission } from '../../src/permissions/decide-permission.js';
import { createRuleSet } from '../../src/permissions/rule-set.js';
import type { PermissionMode } from '../../src/types/permission.js';
import type { Tool } from '../../src/tools/types.js';
import { agentContext } from '../permissions/fixtures.js';
import { makeTempDir, toolNamed } from '../node/workspace-tools/helpers.js';

let base: string;
let work: string;
let marker: string;
let tools: Tool[];

beforeAll(async () => {
  base = await makeTempDir('attack-programs-');
  work = path.join(base, 'work');
  marker = path.join(base, 'RAN');
  const touch = `touch ${marker}`;
  await fs.mkdir(path.join(work, 'bin'), { recursive: true });
  const files: Record<string, string> = {
    'Makefile': `all:\n\t${touch}\n`,
    'script.py': `import os\nos.system(${JSON.stringify(touch)})\n`,
    'script.js': `require('child_process').execSync(${JSON.stringify(touch)})\n`,
    'script.sh': `${touch}\n`,
    'prog.awk': `BEGIN { system(${JSON.stringify(touch)}) }\n`,
    'prog.sed': `1e ${touch}\n`,
    'names.txt': 'script.sh\n',
    'notes.md': 'notes\n',
  };
  for (const [name, content] of Object.entries(files)) await fs.writeFile(path.join(work, name), content);
  for (const name of ['ls', 'cat', 'git']) await fs.writeFile(path.join(work, 'bin', name), `#!/bin/sh\n${touch}\n`, { mode: 0o755 });
  tools = workspaceTools({ cwd: work });
});
afterAll(() => fs.rm(base, { recursive: true, force: true }));

async function decide(command: string, mode: PermissionMode, allow: string[] = []) {
  const outcome = await decidePermission({
    tool: toolNamed(tools, 'Bash'),
    toolUseId: 'toolu_attack',
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

const programsFromFiles = [
  'make', 'make -n', 'make -s all', 'python script.py', 'python3 script.py', 'python3 -m script', 'node script.js', 'node --require ./script.js -e 1',
  'awk -f prog.awk notes.md', `awk 'BEGIN { system("id") }'`, 'sed -f prog.sed notes.md', `sed -n '1e id' notes.md`, 'bash script.sh', 'sh script.sh',
  'bash < script.sh', 'sh -s < script.sh', 'source script.sh', '. ./script.sh', 'xargs sh < names.txt', 'xargs -a names.txt sh', 'cat names.txt | xargs sh',
  'find . -name script.sh -exec sh {} \\;', 'find . -name script.sh -execdir sh {} +', 'find . -ok sh {} \\;', 'env sh script.sh', 'env -S"sh script.sh"',
  'timeout 5 sh script.sh', 'nice sh script.sh', 'nohup sh script.sh', 'stdbuf -o0 sh script.sh', 'time sh script.sh', 'command sh script.sh',
  'exec sh script.sh', 'eval sh script.sh', 'builtin source script.sh', 'perl script.py', 'npx ./script.js', 'npm exec -- sh script.sh',
  `git -c core.pager='sh script.sh' -p log`, `git -c alias.x='!sh script.sh' x`, `git -c diff.external='sh script.sh' diff`, 'git --exec-path=bin log',
  'GIT_EXTERNAL_DIFF=./script.sh git diff', 'GIT_PAGER=./script.sh git -p log', 'git -C . -c core.fsmonitor=./script.sh status', `git --config-env=core.pager=X log`,
  'tail -n1 notes.md | sh', 'cat script.sh | bash', 'ls | xargs -I{} sh script.sh',
];

const pathShadowing = [
  'PATH=./bin:$PATH cat notes.md', 'PATH=bin cat notes.md', 'PATH=bin:/usr/bin ls', 'export PATH=bin; ls', 'export PATH=./bin:$PATH && ls',
  './bin/ls', 'bin/ls', 'cd bin && ./ls', 'env PATH=bin ls', 'hash -p bin/ls ls; ls', 'alias ls=bin/ls', 'BASH_ENV=script.sh ls',
  'enable -f ./bin/ls ls', 'declare PATH=bin; ls', 'readonly PATH=bin; ls', 'typeset -x PATH=bin; ls', 'printf -v PATH bin; ls', 'read PATH < names.txt; ls',
  'mapfile PATH < names.txt; ls', 'PATH+=:bin ls', 'cd bin; PATH=. ls', 'git --exec-path=bin status', 'command -p ls',
];

describe('attack: programs run from files are never read-only', () => {
  it.each(programsFromFiles)('%j is refused in plan mode', async (command) => {
    expect(await decide(command, 'plan')).toBe('deny');
  });

  it.each(programsFromFiles)('%j is not allowed unasked in default mode', async (command) => {
    expect(await decide(command, 'default')).not.toBe('allow');
  });
});

describe('attack: PATH shadowing of a read-only name', () => {
  it.each(pathShadowing)('%j is refused in plan mode', async (command) => {
    expect(await decide(command, 'plan')).toBe('deny');
  });

  it.each(pathShadowing)('%j is not allowed by allow rules on the names it pretends to run', async (command) => {
    expect(await decide(command, 'default', ['Bash(ls:*)', 'Bash(cat:*)', 'Bash(cd:*)', 'Bash(git status:*)'])).not.toBe('allow');
  });

  it('the harmless reads these pretend to be stay allowed in plan mode', async () => {
    for (const command of ['ls', 'cat notes.md', 'cd bin && ls', 'git status', 'command -v ls']) expect(await decide(command, 'plan'), command).toBe('allow');
  });
});

describe('attack: all of them in one plan-mode run', () => {
  it('none runs: every call is answered with an error and no program left its marker', async () => {
    const commands = [...programsFromFiles, ...pathShadowing];
    const calls = commands.map((command, index) => toolCall('Bash', { command }, `b${index}`));
    const results: { toolUseId: string; isError: boolean }[] = [];
    const agent = createAgent({
      model: scriptedModel([turn(...calls.slice(0, 60)), turn(...calls.slice(60)), 'done']),
      tools,
      permissionMode: 'plan',
      cwd: work,
      canUseTool: async () => ({ behavior: 'allow' }),
    });
    agent.on('tool-result', (event) => results.push(event));
    await agent.run('plan').result;
    expect(results).toHaveLength(commands.length);
    expect(results.filter((result) => !result.isError)).toEqual([]);
    expect(await fs.stat(marker).then(() => true, () => false)).toBe(false);
  });
});
