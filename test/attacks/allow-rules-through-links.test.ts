// Attack class: a symbolic link inside the workspace that leads out of it (a repository's own
// link, or one made by an approved command). The README promises that an allow rule never
// reaches outside the workspace and that paths are resolved, links included; a project-wide allow
// rule (`Write(**)`, `Read(**)`, the suggested "always allow") nevertheless wrote and read
// through the link unasked, because the rule matched the path as written and the tool's question
// about the real path was not a "safety" one.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type CanUseTool, type PermissionMode } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { makeTempDir } from '../node/workspace-tools/helpers.js';

let base: string;
let work: string;
let outside: string;
beforeEach(async () => {
  base = await makeTempDir('attack-links-');
  work = path.join(base, 'work');
  outside = path.join(base, 'outside');
  await fs.mkdir(path.join(work, 'src'), { recursive: true });
  await fs.mkdir(outside, { recursive: true });
  await fs.writeFile(path.join(outside, 'secret.txt'), 'SECRET\n');
  await fs.symlink(outside, path.join(work, 'link'));
  await fs.symlink(path.join(outside, 'secret.txt'), path.join(work, 'secret-link.txt'));
});
afterEach(() => fs.rm(base, { recursive: true, force: true }));

describe('attack: a project-wide allow rule reaches outside the workspace through a link', () => {
  it.each([
    ['Write', { file_path: 'link/new.txt', content: 'pwned' }, 'Write(**)', 'default'],
    ['Write', { file_path: 'link/new.txt', content: 'pwned' }, 'Write(link/**)', 'default'],
    ['Read', { file_path: 'link/secret.txt' }, 'Read(**)', 'default'],
    ['Read', { file_path: 'secret-link.txt' }, 'Read(*.txt)', 'default'],
    ['Read', { file_path: 'secret-link.txt' }, 'Read(**)', 'dontAsk'],
    ['Grep', { pattern: 'SECR.T', path: 'link', output_mode: 'content' }, 'Grep(**)', 'default'],
    ['Glob', { pattern: '**', path: 'link' }, 'Glob(**)', 'default'],
  ] as const)('%s %j with %s in %s mode is asked (or refused), never run', async (toolName, input, rule, mode) => {
    const model = scriptedModel([turn(toolCall(toolName, input, 'toolu_link')), 'done']);
    const agent = createAgent({ model, tools: workspaceTools({ cwd: work }), cwd: work, permissionMode: mode as PermissionMode, rules: { allow: [rule] } });
    const result = await agent.run('go').result;
    if (mode === 'dontAsk') {
      expect(result.permissionDenials.map((denial) => denial.toolUseId)).toEqual(['toolu_link']);
    } else {
      expect(result.status).toBe('awaiting-approval');
      expect(agent.pendingApprovals[0]!.blockedPath?.startsWith(outside)).toBe(true);
    }
    expect(JSON.stringify(model.requests.at(-1))).not.toContain('SECRET');
    await expect(fs.access(path.join(outside, 'new.txt'))).rejects.toThrow();
    await agent.close();
  });

  it('the "always allow" the card suggests for the link covers the next call there, and still nothing else outside', async () => {
    let asked = 0;
    const canUseTool: CanUseTool = async (_name, _input, context) => {
      asked++;
      return { behavior: 'allow', updatedPermissions: context.suggestions };
    };
    const model = scriptedModel([
      turn(toolCall('Read', { file_path: 'link/secret.txt' }, 'toolu_1')),
      turn(toolCall('Read', { file_path: 'link/secret.txt' }, 'toolu_2')),
      'done',
    ]);
    const agent = createAgent({ model, tools: workspaceTools({ cwd: work }), cwd: work, canUseTool, rules: { allow: ['Read(**)'] } });
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(asked).toBe(1);
    await agent.close();
  });

  it('inside the workspace the rule still allows without asking', async () => {
    await fs.writeFile(path.join(work, 'src', 'a.ts'), 'a\n');
    const model = scriptedModel([turn(toolCall('Read', { file_path: 'src/a.ts' }, 'toolu_1'), toolCall('Write', { file_path: 'src/b.ts', content: 'b' }, 'toolu_2')), 'done']);
    const agent = createAgent({ model, tools: workspaceTools({ cwd: work }), cwd: work, rules: { allow: ['Read(**)', 'Write(src/**)'] } });
    expect((await agent.run('go').result).status).toBe('completed');
    expect(await fs.readFile(path.join(work, 'src', 'b.ts'), 'utf8')).toBe('b');
    await agent.close();
  });
});
