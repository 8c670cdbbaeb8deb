// The README: "A subagent's changes count as changes of the parent's `Agent` call that started it
// (a background subagent's too, whenever it made them)". A background subagent writes after the
// parent has gone on to a later prompt: a rewind to that later prompt leaves the subagent's file
// (its change belongs to the earlier Agent call); a rewind to before the Agent call removes it.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { deferred } from '../helpers.js';
import { makeTempDir } from '../node/workspace-tools/helpers.js';

let work: string;
beforeEach(async () => {
  work = await makeTempDir('rewind-background-');
});
afterEach(() => fs.rm(work, { recursive: true, force: true }));

const read = (name: string) => fs.readFile(path.join(work, name), 'utf8').catch(() => undefined);

async function scenario() {
  const gate = deferred<void>();
  const finished = deferred<void>();
  const wait = defineTool({ name: 'gate', description: 'Waits for the test.', inputSchema: z.object({}), readOnly: true, execute: async () => (await gate.promise, 'open') });
  const agent = createAgent({
    model: scriptedModel([
      turn(toolCall('Agent', { description: 'write late', prompt: 'Write it', subagent_type: 'writer', run_in_background: true }, 'p_agent')),
      'Started.',
      turn(toolCall('Write', { file_path: 'other.md', content: 'OTHER\n' }, 'p_other')),
      'Wrote other.',
    ]),
    tools: [...workspaceTools({ cwd: work }), wait],
    permissionMode: 'acceptEdits',
    agents: {
      writer: {
        description: 'Writes.',
        prompt: 'You write.',
        tools: ['Write', 'gate'],
        model: scriptedModel([turn(toolCall('gate', {}, 'c_gate')), turn(toolCall('Write', { file_path: 'late.md', content: 'LATE\n' }, 'c_write')), 'Wrote late.']),
      },
    },
    hooks: { SubagentStop: [{ hook: () => (finished.resolve(), {}) }] },
  });
  expect((await agent.run('start the writer').result).status).toBe('completed');
  const secondPrompt = agent.messages.length;
  expect((await agent.run('write the other file').result).status).toBe('completed');
  gate.resolve();
  await finished.promise;
  expect(await read('late.md')).toBe('LATE\n');
  expect(await read('other.md')).toBe('OTHER\n');
  return { agent, secondPrompt };
}

describe('rewind after a background subagent wrote late', () => {
  it('a rewind to the later prompt undoes that prompt only: the subagent\'s file stays', async () => {
    const { agent, secondPrompt } = await scenario();
    const result = await agent.rewindFiles({ toMessage: secondPrompt });
    expect(result.restored.map((file) => path.basename(file.path))).toEqual(['other.md']);
    expect(await read('other.md')).toBeUndefined();
    expect(await read('late.md')).toBe('LATE\n');
    await agent.close();
  });

  it('a rewind to before the Agent call removes what the subagent wrote, whenever it wrote it', async () => {
    const { agent } = await scenario();
    const result = await agent.rewindFiles({ toMessage: 0 });
    expect(result.restored.map((file) => path.basename(file.path)).sort()).toEqual(['late.md', 'other.md']);
    expect(result.skipped).toEqual([]);
    expect(await read('late.md')).toBeUndefined();
    await agent.close();
  });
});
