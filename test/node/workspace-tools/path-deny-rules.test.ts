// Deny rules on paths hold however the model spells the path (found in a security review).
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { createRuleSet } from '../../../src/permissions/rule-set.js';
import { decidePermission } from '../../../src/permissions/decide-permission.js';
import type { Tool } from '../../../src/tools/types.js';
import { agentContext } from '../../permissions/fixtures.js';
import { makeTempDir, toolNamed } from './helpers.js';

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


describe('path deny rules see the real path', () => {
  it('`Write(secrets/**)` holds through a symlinked alias of secrets/', async () => {
    await fs.symlink(path.join(work, 'secrets'), path.join(work, 'alias'));
    const decision = await decide({ file_path: 'alias/new.txt', content: 'x' }, { tool: 'Write', mode: 'acceptEdits', deny: ['Write(secrets/**)'] });
    expect(decision.behavior).toBe('deny');
  });

  it('with no agent `cwd`, an absolute path still meets a relative deny rule', async () => {
    const file = path.join(work, 'secrets', 'new.txt');
    const decision = await decide({ file_path: file, content: 'x' }, { tool: 'Write', mode: 'acceptEdits', deny: ['Write(secrets/**)'], cwd: undefined });
    expect(decision.behavior).toBe('deny');
  });

  it('a symlinked workspace: the real path meets the rule as well as the link path', async () => {
    const link = `${work}-link`;
    await fs.symlink(work, link);
    try {
      tools = workspaceTools({ cwd: link });
      const decision = await decide({ file_path: path.join(work, 'secrets', 'new.txt'), content: 'x' }, { tool: 'Write', mode: 'acceptEdits', deny: ['Write(secrets/**)'], cwd: link });
      expect(decision.behavior).toBe('deny');
    } finally {
      await fs.rm(link);
    }
  });
});


describe('safety questions outrank allow rules', () => {
  it('an allow rule like Write(**) does not approve a write into .git; an ordinary write it does', async () => {
    await fs.mkdir(path.join(work, '.git'));
    const intoGit = await decide({ file_path: '.git/config', content: 'x' }, { tool: 'Write', mode: 'default', allow: ['Write(**)'] });
    expect(intoGit.behavior).not.toBe('allow');
    expect(intoGit.reason.type).toBe('tool-check');
    const ordinary = await decide({ file_path: 'notes.md', content: 'x' }, { tool: 'Write', mode: 'default', allow: ['Write(**)'] });
    expect(ordinary.behavior).toBe('allow');
  });
});
