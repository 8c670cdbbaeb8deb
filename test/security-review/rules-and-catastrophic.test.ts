// Security review (throwaway): permission-rule matching and catastrophic-command holes.
// Every test PASSES when the hole is present. Destructive commands are only classified, never run;
// the harmless proofs run `touch` inside an mkdtemp directory.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../src/node/workspace-tools.js';
import { classifyBashCommand } from '../../src/node/workspace-tools/classify-bash-command.js';
import { findCatastrophicCommand } from '../../src/node/workspace-tools/find-catastrophic-command.js';
import { createRuleSet } from '../../src/permissions/rule-set.js';
import { decidePermission } from '../../src/permissions/decide-permission.js';
import type { Tool } from '../../src/tools/types.js';
import { agentContext } from '../permissions/fixtures.js';
import { makeTempDir, toolNamed } from '../node/workspace-tools/helpers.js';

let work: string;
let tools: Tool[];
beforeEach(async () => {
  work = await makeTempDir('secrev-rules-');
  await fs.mkdir(path.join(work, 'secrets'));
  await fs.writeFile(path.join(work, 'secrets', 'key.txt'), 'k\n');
  tools = workspaceTools({ cwd: work });
});
afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

async function decide(rawInput: unknown, opts: { tool?: string; mode?: 'default' | 'plan' | 'bypassPermissions' | 'acceptEdits'; allow?: string[]; deny?: string[]; cwd?: string | undefined }) {
  const tool = toolNamed(tools, opts.tool ?? 'Bash');
  const outcome = await decidePermission({
    tool,
    toolUseId: 'toolu_x',
    rawInput,
    mode: opts.mode ?? 'default',
    rules: createRuleSet({ allow: opts.allow ?? [], deny: opts.deny ?? [] }),
    signal: new AbortController().signal,
    agent: agentContext(opts.mode ?? 'default'),
    emit: () => {},
    ...('cwd' in opts ? (opts.cwd === undefined ? {} : { cwd: opts.cwd }) : { cwd: work }),
  } as never);
  return outcome.decision;
}

const runBash = (command: string) => execFileSync('/bin/bash', ['-c', command], { cwd: work, stdio: 'pipe' });
const exists = (name: string) => fs.stat(path.join(work, name)).then(() => true, () => false);

describe('HOLE: an allow rule `Bash(prefix:*)` lets a second command through', () => {
  const variants: Array<[string, string]> = [
    // `#` starts a comment for bash, but the rule splitter reads the `'` inside it as a quote.
    ['comment hides a quote', "echo ok #'\ntouch pwned1\n#'"],
    // $'\'' is one quoted `'` for bash; the splitter sees '\' closed and a new quote opened.
    ['ANSI-C quote', "echo ok $'\\'' ; touch pwned2 ; echo ''"],
    // ${x@P} performs command substitution; the splitter only looks for a literal `$(`.
    ['${x@P} prompt expansion', 'echo "${x:=\\$(touch pwned3)}" "${x@P}"'],
  ];
  it.each(variants)('%s', async (_name, command) => {
    const decision = await decide({ command }, { allow: ['Bash(echo:*)'] });
    expect(decision.behavior).toBe('allow');
    expect(decision.reason).toMatchObject({ type: 'rule', behavior: 'allow', rule: 'Bash(echo:*)' });
    expect(classifyBashCommand(command).readOnly).toBe(false); // the Bash classifier is not fooled
    runBash(command); // what the tool would run: proves a second command executes
    expect((await fs.readdir(work)).some((name) => name.startsWith('pwned'))).toBe(true);
  });

  it('an exact allow rule collapses newlines: `Bash(echo touch pwned4)` allows "echo\\ntouch pwned4"', async () => {
    const decision = await decide({ command: 'echo\ntouch pwned4' }, { allow: ['Bash(echo touch pwned4)'] });
    expect(decision.behavior).toBe('allow');
    runBash('echo\ntouch pwned4');
    expect(await exists('pwned4')).toBe(true);
  });
});

describe('HOLE: a deny rule `Bash(rm:*)` is missed', () => {
  it.each([
    "echo #'\nrm -rf secrets\n#'",
    "echo $'\\'' ; rm -rf secrets ; echo ''",
    '{ rm -rf secrets; }',
    '(rm -rf secrets)',
    'if true; then rm -rf secrets; fi',
    '! rm -rf secrets',
    'command rm -rf secrets',
    '\\rm -rf secrets',
    "'rm' -rf secrets",
    '/bin/rm -rf secrets',
    'time rm -rf secrets',
  ])('%j', async (command) => {
    const decision = await decide({ command }, { mode: 'bypassPermissions', deny: ['Bash(rm:*)'] });
    expect(decision.behavior).toBe('allow'); // the deny rule did not win
  });
});

describe('HOLE: path deny rules match the lexical path only', () => {
  it('`Edit(secrets/**)` is not matched through a symlinked alias, yet Write lands in secrets/', async () => {
    await fs.symlink(path.join(work, 'secrets'), path.join(work, 'alias'));
    const decision = await decide({ file_path: 'alias/new.txt', content: 'x' }, { tool: 'Write', mode: 'acceptEdits', deny: ['Write(secrets/**)'] });
    expect(decision.behavior).toBe('allow');
  });

  it('with no agent `cwd` (the documented default), an absolute path skips a relative deny rule', async () => {
    const file = path.join(work, 'secrets', 'new.txt');
    const decision = await decide({ file_path: file, content: 'x' }, { tool: 'Write', mode: 'acceptEdits', deny: ['Write(secrets/**)'], cwd: undefined });
    expect(decision.behavior).toBe('allow');
  });

  it('a symlinked workspace: agent cwd given as the link path, tool uses the real path', async () => {
    const link = `${work}-link`;
    await fs.symlink(work, link);
    try {
      tools = workspaceTools({ cwd: link });
      const decision = await decide({ file_path: path.join(work, 'secrets', 'new.txt'), content: 'x' }, { tool: 'Write', mode: 'acceptEdits', deny: ['Write(secrets/**)'], cwd: link });
      expect(decision.behavior).toBe('allow');
    } finally {
      await fs.rm(link);
    }
  });
});

describe('HOLE: catastrophic commands that are not recognized (classified only, never run)', () => {
  it.each([
    'find / -delete',
    'find ~ -delete',
    '{ rm -rf ~; }',
    '! rm -rf ~',
    'if true; then rm -rf ~; fi',
    'while true; do rm -rf ~; done',
    'rm --recu -f ~',
    "rm -rf $'/'",
    'rm -rf ~/{,}',
    'rm -rf /u[s]r',
    'rm -rf ${HOME:?}',
    'rm -rf ~root',
    'setsid rm -rf ~',
    'timeout -s KILL 5 rm -rf ~',
    "env -S 'rm -rf ~'",
    "bash <<< 'rm -rf ~'",
    "echo 'rm -rf ~' | sh",
    'echo $(case x in x) rm -rf ~ ;; esac)',
    "bash -c $'rm -rf /'",
  ])('%j is not refused', (command) => {
    expect(findCatastrophicCommand(command)).toBeUndefined();
    expect(classifyBashCommand(command).readOnly).toBe(false); // still asked in default mode
  });

  it('so bypassPermissions runs them: decidePermission allows `{ rm -rf ~; }`', async () => {
    expect((await decide({ command: '{ rm -rf ~; }' }, { mode: 'bypassPermissions' })).behavior).toBe('allow');
  });
});
