// agent.rewindFiles undoes what subagents (the Agent tool) changed: their Write/Edit checkpoints
// are the session's, attributed to the parent's Agent call. They used to stay in the subagent's
// own tool state, so the rewind answered { restored: [], skipped: [] } and the file stayed
// (attack run).
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type Agent, type AgentDefinition } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn, type ScriptItem } from 'agent-harness/testing';
import { makeTempDir } from './helpers.js';

let work: string;
beforeEach(async () => {
  work = await makeTempDir('ws-rewind-subagent-');
});
afterEach(() => fs.rm(work, { recursive: true, force: true }));

const file = (name: string) => path.join(work, name);
const read = (name: string) => fs.readFile(file(name), 'utf8').catch(() => undefined);

/** A parent whose `writer` subagent follows `child`; the parent's own script is `parent`. */
function agentWith(parent: ScriptItem[], child: ScriptItem[], options: { maxDepth?: number; grandchild?: ScriptItem[] } = {}): Agent {
  const grandchild: Record<string, AgentDefinition> = options.grandchild ? { helper: { description: 'Helps.', prompt: 'You help.', tools: ['Write'], model: scriptedModel(options.grandchild) } } : {};
  return createAgent({
    model: scriptedModel(parent),
    tools: workspaceTools({ cwd: work }),
    permissionMode: 'acceptEdits',
    agents: {
      writer: { description: 'Writes sections.', prompt: 'You write.', tools: ['Read', 'Write', 'Edit', ...(options.maxDepth ? ['Agent'] : [])], model: scriptedModel(child), ...(options.maxDepth ? { maxDepth: options.maxDepth } : {}) },
      ...grandchild,
    },
  });
}

const startWriter = (id: string) => turn(toolCall('Agent', { description: 'write', prompt: 'Write it', subagent_type: 'writer' }, id));

describe('agent.rewindFiles after a subagent changed files', () => {
  it('removes a file a subagent created in answer to the rewound prompt', async () => {
    const agent = agentWith([startWriter('p_agent'), 'Done.'], [turn(toolCall('Write', { file_path: 'pricing.md', content: 'PRICING\n' })), 'Wrote it.']);
    expect((await agent.run('Now add a section on pricing').result).status).toBe('completed');
    expect(await read('pricing.md')).toBe('PRICING\n');

    const result = await agent.rewindFiles({ toMessage: 0 });
    expect(result).toEqual({ restored: [{ path: file('pricing.md'), action: 'deleted', toolName: 'Write' }], skipped: [], interrupted: false });
    expect(await read('pricing.md')).toBeUndefined();
  });

  it('puts back the earlier content of a file the subagent edited, and only undoes the changes after the point', async () => {
    await fs.writeFile(file('draft.md'), 'v0\n');
    const agent = agentWith(
      [turn(toolCall('Read', { file_path: 'draft.md' })), turn(toolCall('Edit', { file_path: 'draft.md', old_string: 'v0', new_string: 'v1' })), 'Edited.', startWriter('p_agent'), 'Done.'],
      [turn(toolCall('Read', { file_path: 'draft.md' })), turn(toolCall('Edit', { file_path: 'draft.md', old_string: 'v1', new_string: 'v2' })), 'Edited again.'],
    );
    await agent.run('edit the draft').result;
    const second = agent.messages.length;
    await agent.run('let the writer go on').result;
    expect(await read('draft.md')).toBe('v2\n');

    expect(await agent.rewindFiles({ toMessage: second + 2 })).toEqual({ restored: [], skipped: [], interrupted: false });
    const result = await agent.rewindFiles({ toMessage: second });
    expect(result).toEqual({ restored: [{ path: file('draft.md'), action: 'restored', toolName: 'Edit' }], skipped: [], interrupted: false });
    expect(await read('draft.md')).toBe('v1\n');
    expect(JSON.stringify(agent.snapshot().toolState)).not.toContain('files.checkpoint:2');
  });

  it('reaches the changes of a subagent started by a subagent', async () => {
    const agent = agentWith(
      [startWriter('p_agent'), 'Done.'],
      [turn(toolCall('Agent', { description: 'help', prompt: 'Write notes', subagent_type: 'helper' }, 'c_agent')), 'Delegated.'],
      { maxDepth: 1, grandchild: [turn(toolCall('Write', { file_path: 'notes.md', content: 'notes\n' })), 'Wrote notes.'] },
    );
    expect((await agent.run('go').result).status).toBe('completed');
    expect(await read('notes.md')).toBe('notes\n');
    expect((await agent.rewindFiles({ toMessage: 0 })).restored).toEqual([{ path: file('notes.md'), action: 'deleted', toolName: 'Write' }]);
    expect(await read('notes.md')).toBeUndefined();
  });

  it('works on an agent resumed from a snapshot taken after the subagent ran', async () => {
    const options = { tools: workspaceTools({ cwd: work }), permissionMode: 'acceptEdits' as const };
    const agent = agentWith([startWriter('p_agent'), 'Done.'], [turn(toolCall('Write', { file_path: 'pricing.md', content: 'PRICING\n' })), 'Wrote it.']);
    await agent.run('go').result;
    const resumed = createAgent({ ...options, model: scriptedModel([]), resume: agent.snapshot(), agents: { writer: { description: 'Writes sections.', prompt: 'You write.' } } });
    expect((await resumed.rewindFiles({ toMessage: 0 })).restored).toEqual([{ path: file('pricing.md'), action: 'deleted', toolName: 'Write' }]);
    expect(await read('pricing.md')).toBeUndefined();
  });
});
