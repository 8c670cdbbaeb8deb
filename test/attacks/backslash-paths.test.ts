// Attack class: a backslash in a path. The core used to read `\` as a separator everywhere, while
// the workspace tools on POSIX read it as a character of a name: `a\b/../../x` is `x` (inside) to
// the rule matcher and `../x` (outside) to the Write tool. A project-wide allow rule (`Write(**)`,
// the suggested "always allow") then wrote outside the workspace, up to any file of the machine
// with enough `\` and `..`, and the execution-time check let it through (no symbolic link).
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { makeTempDir } from '../node/workspace-tools/helpers.js';

let base: string;
let work: string;
beforeAll(async () => {
  base = await makeTempDir('attack-backslash-');
  work = path.join(base, 'a', 'b', 'work');
  await fs.mkdir(work, { recursive: true });
  await fs.writeFile(path.join(base, 'outside.txt'), 'original\n');
});
afterAll(() => fs.rm(base, { recursive: true, force: true }));

describe('attack: an allow rule on the project writes outside it through a backslash', () => {
  it.each([
    ['Write', { file_path: 'x\\y/../../escaped.txt', content: 'pwned' }, 'escaped.txt'],
    ['Write', { file_path: 'x\\y\\z\\w/../../../../escaped.txt', content: 'pwned' }, '../../escaped.txt'],
    ['Edit', { file_path: 'x\\y\\z\\w/../../../../outside.txt', old_string: 'original', new_string: 'pwned' }, '../../outside.txt'],
  ])('%s %j is asked, and nothing outside changes', async (toolName, input, target) => {
    const model = scriptedModel([turn(toolCall('Read', { file_path: path.join(base, 'outside.txt') }, 'toolu_read'), toolCall(toolName, input, 'toolu_write')), 'done']);
    const agent = createAgent({ model, tools: workspaceTools({ cwd: work }), cwd: work, rules: { allow: ['Read', 'Write(**)', 'Edit(**)'] } });
    const result = await agent.run('go').result;
    expect(result.status).toBe('awaiting-approval');
    expect(agent.pendingApprovals.map((approval) => [approval.toolUseId, approval.blockedPath])).toEqual([['toolu_write', path.resolve(work, '..', target)]]);
    expect(await fs.readFile(path.join(base, 'outside.txt'), 'utf8')).toBe('original\n');
    await expect(fs.access(path.join(base, 'a', 'escaped.txt'))).rejects.toThrow();
    await expect(fs.access(path.join(base, 'a', 'b', 'escaped.txt'))).rejects.toThrow();
    await agent.close();
  });

  it('a backslash that stays inside either way is still allowed by the rule', async () => {
    const model = scriptedModel([turn(toolCall('Write', { file_path: 'notes\\draft.md', content: 'x' }, 'toolu_write')), 'done']);
    const agent = createAgent({ model, tools: workspaceTools({ cwd: work }), cwd: work, rules: { allow: ['Write(**)'] } });
    expect((await agent.run('go').result).status).toBe('completed');
    await agent.close();
  });
});
