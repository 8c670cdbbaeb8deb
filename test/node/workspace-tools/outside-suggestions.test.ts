import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { createAgent, type PermissionUpdate, type ToolResultBlock } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { makeTempDir } from './helpers.js';

it('"always allow" for a path outside the workspace works: the echoed suggestion lets the next read run', async () => {
  const root = await makeTempDir('outside-suggestion-');
  onTestFinished(() => fs.rm(root, { recursive: true, force: true }));
  const work = path.join(root, 'work');
  await fs.mkdir(work);
  await fs.mkdir(path.join(root, 'shared'));
  await fs.writeFile(path.join(root, 'shared', 'a.txt'), 'alpha\n');
  await fs.writeFile(path.join(root, 'shared', 'b.txt'), 'beta\n');
  const model = scriptedModel([
    turn(toolCall('Read', { file_path: '../shared/a.txt' }, 'r1')),
    turn(toolCall('Read', { file_path: '../shared/b.txt' }, 'r2')),
    'done',
  ]);
  let asked = 0;
  const agent = createAgent({
    model,
    tools: workspaceTools({ cwd: work }),
    cwd: work,
    canUseTool: (_name, _input, context) => {
      asked++;
      expect(context.blockedPath).toBe(path.join(root, 'shared', 'a.txt'));
      return { behavior: 'allow', updatedPermissions: context.suggestions as PermissionUpdate[] };
    },
  });
  const result = await agent.run('read both').result;
  expect(result.status).toBe('completed');
  expect(asked).toBe(1);
  const second = (model.requests[2]!.messages.at(-1)!.content as ToolResultBlock[])[0]!;
  expect(second.is_error).toBeFalsy();
  expect(JSON.stringify(second.content)).toContain('beta');
});
