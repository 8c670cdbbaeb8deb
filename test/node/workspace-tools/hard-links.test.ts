// Hard links to files outside the workspace cannot be told apart by path. Writes through one ask
// (the outside name changes too); reads do not (see workspaceTools: package-manager stores such
// as pnpm hard-link every dependency, and creating a link needs `ln`, which Bash asks about).
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import type { Tool } from '../../../src/tools/types.js';
import { callTool, fakeAgent, makeTempDir, toolNamed } from './helpers.js';

let base: string;
let work: string;
let tools: Tool[];
beforeEach(async () => {
  base = await makeTempDir('ws-hardlink-');
  work = path.join(base, 'work');
  await fs.mkdir(work);
  await fs.mkdir(path.join(base, 'outside'));
  await fs.writeFile(path.join(base, 'outside', 'secret.txt'), 'SECRET\n');
  await fs.link(path.join(base, 'outside', 'secret.txt'), path.join(work, 'hl'));
  tools = workspaceTools({ cwd: work });
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe('hard links', () => {
  it('Write and Edit of a file with several hard links ask, even in acceptEdits', async () => {
    const agent = fakeAgent('acceptEdits');
    expect((await callTool(toolNamed(tools, 'Read'), { file_path: 'hl' }, { agent })).isError).toBe(false);
    for (const [name, input] of [['Write', { file_path: 'hl', content: 'x' }], ['Edit', { file_path: 'hl', old_string: 'SECRET', new_string: 'x' }]] as const) {
      const result = await callTool(toolNamed(tools, name), input, { agent });
      expect(result.check, name).toMatchObject({ behavior: 'ask', message: expect.stringContaining('hard links') });
    }
    expect(await fs.readFile(path.join(base, 'outside', 'secret.txt'), 'utf8')).toBe('SECRET\n');
  });

  it('Read of a hard link is not asked (documented limitation)', async () => {
    const read = await callTool(toolNamed(tools, 'Read'), { file_path: 'hl' });
    expect(read.check).toEqual({ behavior: 'passthrough' });
  });
});
