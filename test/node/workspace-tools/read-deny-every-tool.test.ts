// A path deny rule on reading protects the path from every tool that reads it (issue 10): the
// README's own Read(**/.env) did not stop Grep or `cat .env` in plan mode.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { decidePermission } from '../../../src/permissions/decide-permission.js';
import { createRuleSet } from '../../../src/permissions/rule-set.js';
import type { PermissionMode } from '../../../src/types/permission.js';
import type { Tool } from '../../../src/tools/types.js';
import { agentContext } from '../../permissions/fixtures.js';
import { makeTempDir, outcomeOf, toolNamed } from './helpers.js';

const SECRET = 'DOTENV-SECRET-91';
let work: string;
let tools: Tool[];

beforeAll(async () => {
  work = await makeTempDir('ws-read-deny-');
  await fs.mkdir(path.join(work, 'sub', 'deep'), { recursive: true });
  await fs.writeFile(path.join(work, '.env'), `KEY=${SECRET}\n`);
  await fs.writeFile(path.join(work, 'sub', 'deep', '.env'), `KEY=${SECRET}\n`);
  await fs.writeFile(path.join(work, 'notes.md'), 'KEY is documented here\n');
  await fs.symlink(path.join(work, '.env'), path.join(work, 'innocent.txt'));
  tools = workspaceTools({ cwd: work });
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

async function decide(toolName: string, rawInput: unknown, mode: PermissionMode, rules: { deny?: string[]; ask?: string[] } = { deny: ['Read(**/.env)'] }) {
  const agent = agentContext(mode);
  const outcome = await decidePermission({
    tool: toolNamed(tools, toolName),
    toolUseId: 'toolu_read',
    rawInput,
    mode,
    rules: createRuleSet(rules),
    signal: new AbortController().signal,
    agent,
    emit: () => {},
    cwd: work,
  });
  return { decision: outcome.decision, agent, input: outcome.input };
}

const MODES: PermissionMode[] = ['default', 'plan', 'acceptEdits', 'bypassPermissions', 'dontAsk', 'auto'];

const deniedBash = [
  'cat .env',
  'cat ./.env',
  'cat sub/deep/.env',
  'cd sub/deep && cat .env',
  'cd sub; cat deep/.env',
  'grep KEY .env',
  'head -n 1 .env',
  'tail .env',
  'less .env',
  'more .env',
  'source .env',
  '. .env',
  'cp .env /tmp/copied',
  'cat < .env',
  'wc -l < .env',
  'sort .env | uniq',
  'echo "$(cat .env)"',
  'echo `cat .env`',
  'sudo cat .env',
  'env cat .env',
  'timeout 5 cat .env',
  'python3 -c "print(open(\'.env\').read())" .env',
  'awk 1 .env',
  'sed -n p .env',
  'base64 .env',
  'xxd .env',
  'od -c .env',
  'dd if=.env',
  'diff .env notes.md',
  'git show HEAD:.env',
  'git diff -- .env',
  'cat innocent.txt',
  `cat ${'x'.repeat(0)}'.env'`,
  'cat ".env"',
  'cat \\.env',
  'mv .env moved && cat moved',
  'ln -s .env alias; cat alias',
  `cat ${path.join('/', 'tmp', '..', 'tmp', '..')}${'/'.slice(1)}.env`.replace('/tmp/../tmp/..', '.'),
];

const askedBash = ['cat .e*', 'cat *', 'cat $(echo .env)', 'cat "$F"', 'xargs cat < names.txt', 'find . -name .env -exec cat {} \\;', 'grep -r KEY .', 'rg KEY', 'git diff', 'while read f; do cat "$f"; done < list'];

const harmlessBash = ['cat notes.md', 'ls -a', 'ls -la .env', 'echo .env', 'stat .env', 'grep KEY notes.md', 'wc -c notes.md', 'grep -r KEY sub/other-dir-without-env'];

describe('Read(**/.env) holds for every tool that reads', () => {
  it.each(deniedBash.flatMap((command) => MODES.map((mode) => [command, mode] as const)))('Bash %j is denied in %s mode', async (command, mode) => {
    const { decision } = await decide('Bash', { command }, mode);
    expect(decision.behavior).toBe('deny');
  });

  it.each(askedBash.flatMap((command) => ['default', 'plan', 'bypassPermissions'].map((mode) => [command, mode as PermissionMode] as const)))(
    'Bash %j reads what cannot be named in advance: never allowed unasked in %s mode',
    async (command, mode) => {
      const { decision } = await decide('Bash', { command }, mode);
      expect(decision.behavior).not.toBe('allow');
    },
  );

  it.each(harmlessBash)('Bash %j is not stopped by the Read rule', async (command) => {
    const { decision } = await decide('Bash', { command }, 'plan');
    expect(decision.behavior).not.toBe('deny');
  });

  it('an ask rule on Read asks for cat in bypassPermissions', async () => {
    const { decision } = await decide('Bash', { command: 'cat .env' }, 'bypassPermissions', { ask: ['Read(**/.env)'] });
    expect(decision.behavior).not.toBe('allow');
  });

  it.each(MODES)('Read and Grep of the file itself are denied in %s mode', async (mode) => {
    expect((await decide('Read', { file_path: '.env' }, mode)).decision.behavior).toBe('deny');
    expect((await decide('Grep', { pattern: 'KEY', path: '.env' }, mode)).decision.behavior).toBe('deny');
    expect((await decide('Grep', { pattern: 'KEY', path: 'sub/deep/.env' }, mode)).decision.behavior).toBe('deny');
    expect((await decide('Read', { file_path: 'innocent.txt' }, mode)).decision.behavior).toBe('deny');
  });

  it.each(['default', 'plan', 'bypassPermissions'] as PermissionMode[])('Grep over a folder holding .env skips it (%s mode), and says so', async (mode) => {
    const { decision, agent, input } = await decide('Grep', { pattern: 'KEY', output_mode: 'content' }, mode);
    expect(decision.behavior).toBe('allow');
    const grep = toolNamed(tools, 'Grep');
    const raw = await grep.execute({ input, toolUseId: 'toolu_read', agent, signal: new AbortController().signal });
    const { text } = outcomeOf(raw);
    expect(text).not.toContain(SECRET);
    expect(text).toContain('notes.md:1:KEY is documented here');
    expect(text).toMatch(/2 files were not searched: the session's Read rules keep them from being read/);
  });

  it('without Read rules Grep searches everything (no record, nothing skipped)', async () => {
    const { agent, input } = await decide('Grep', { pattern: 'KEY', output_mode: 'files_with_matches' }, 'default', {});
    const raw = await toolNamed(tools, 'Grep').execute({ input, toolUseId: 'toolu_read', agent, signal: new AbortController().signal });
    expect(outcomeOf(raw).text).toContain('.env');
  });

  it('Glob lists names only: a Read rule does not hide .env from it', async () => {
    expect((await decide('Glob', { pattern: '**/.env' }, 'plan')).decision.behavior).toBe('allow');
  });
});
