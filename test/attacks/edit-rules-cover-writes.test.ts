// Attack class: a deny rule on `Edit(…)` dodged by the other tool that changes files. Hosts
// (and Claude Code's vocabulary, which this library keeps) write `deny: ['Edit(secrets/**)']` to
// mean "the agent does not change these files"; `Write` overwrote or created them anyway, unasked
// in acceptEdits and bypassPermissions. `Edit(…)` deny and ask rules now hold for every tool that
// edits a file by path, as `Read(…)` ones hold for every tool that reads.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type PermissionMode } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { makeTempDir } from '../node/workspace-tools/helpers.js';

let work: string;
beforeAll(async () => {
  work = await makeTempDir('attack-edit-rules-');
  await fs.mkdir(path.join(work, 'secrets'));
  await fs.writeFile(path.join(work, 'secrets', 'key.txt'), 'KEY\n');
  await fs.writeFile(path.join(work, '.env'), 'A=1\n');
  await fs.symlink(path.join(work, 'secrets'), path.join(work, 'alias'));
});
afterAll(() => fs.rm(work, { recursive: true, force: true }));

describe('attack: Write changes what an Edit deny rule protects', () => {
  it.each([
    ['acceptEdits', 'secrets/key.txt', 'Edit(secrets/**)'],
    ['acceptEdits', 'secrets/other.txt', 'Edit(secrets/**)'],
    ['bypassPermissions', 'secrets/new.txt', 'Edit(secrets/**)'],
    ['acceptEdits', 'alias/new.txt', 'Edit(secrets/**)'],
    ['bypassPermissions', 'sub/.env', 'Edit(**/.env)'],
  ] as const)('in %s, Write %s is denied by %s', async (mode, file, rule) => {
    // The file is read first, as a Write over an existing file needs.
    const model = scriptedModel([turn(toolCall('Read', { file_path: 'secrets/key.txt' }, 'toolu_read')), turn(toolCall('Write', { file_path: file, content: 'PWNED' }, 'toolu_write')), 'done']);
    const agent = createAgent({
      model,
      tools: workspaceTools({ cwd: work }),
      cwd: work,
      permissionMode: mode as PermissionMode,
      allowDangerouslySkipPermissions: true,
      rules: { deny: [rule] },
    });
    const result = await agent.run('go').result;
    expect(result.permissionDenials.map((denial) => denial.reason)).toEqual([{ type: 'rule', behavior: 'deny', rule }]);
    expect(await fs.readFile(path.join(work, 'secrets', 'key.txt'), 'utf8')).toBe('KEY\n');
    expect(await fs.readFile(path.join(work, '.env'), 'utf8')).toBe('A=1\n');
    await expect(fs.access(path.join(work, 'secrets', 'new.txt'))).rejects.toThrow();
    await expect(fs.access(path.join(work, 'secrets', 'other.txt'))).rejects.toThrow();
    await expect(fs.access(path.join(work, 'sub', '.env'))).rejects.toThrow();
    await agent.close();
  });

  it('an Edit ask rule asks for a Write there, and other files are written as before', async () => {
    const model = scriptedModel([turn(toolCall('Write', { file_path: 'notes.md', content: 'ok' }, 'toolu_ok'), toolCall('Write', { file_path: 'secrets/b.txt', content: 'x' }, 'toolu_ask')), 'done']);
    const agent = createAgent({ model, tools: workspaceTools({ cwd: work }), cwd: work, permissionMode: 'acceptEdits', rules: { ask: ['Edit(secrets/**)'] } });
    const result = await agent.run('go').result;
    expect(result.status).toBe('awaiting-approval');
    expect(agent.pendingApprovals.map((approval) => [approval.toolUseId, approval.reason])).toEqual([['toolu_ask', { type: 'rule', behavior: 'ask', rule: 'Edit(secrets/**)' }]]);
    expect(await fs.readFile(path.join(work, 'notes.md'), 'utf8')).toBe('ok');
    await agent.close();
  });
});
