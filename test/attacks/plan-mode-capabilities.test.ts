// Attack class: capabilities that reach the agent by other ways than its own tool list — tools a
// subagent inherits from a read-only one, suggestions on a plan-mode approval card, stores behind
// a read-only command — must not let plan mode or a read-only subagent change anything.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILTIN_AGENTS, createAgent, defineTool, memoryMemoryStore, memoryTool, type Agent, type PermissionUpdate } from 'agent-harness';
import { fileMemoryStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect } from '../helpers.js';
import { createNotesServer, type NotesServerState } from '../mcp/fixtures/notes-server.js';

const agents: Agent[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
  await Promise.all(dirs.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

describe('attack: a read-only subagent starts a subagent that writes', () => {
  it('the subagent it starts is read-only too: an MCP tool its server does not mark read-only is refused, even where a rule allows it', async () => {
    const state: NotesServerState = { notes: [], calls: [], cancelled: false };
    const worker = scriptedModel([turn(toolCall('mcp__notes__append_note', { text: 'written' }, 'w_append'), toolCall('mcp__notes__list_notes', {}, 'w_list')), 'Tried.']);
    const scout = scriptedModel([turn(toolCall('Agent', { description: 'delegate', prompt: 'append a note', subagent_type: 'worker' }, 's_agent')), 'Scouted.']);
    const agent = createAgent({
      model: scriptedModel(['Connected.', turn(toolCall('Agent', { description: 'look', prompt: 'look at the notes', subagent_type: 'scout' }, 'p_agent')), 'Done.']),
      mcpServers: { notes: { type: 'sdk', server: createNotesServer(state) } },
      // The host trusts the server's tools: only the scout's type keeps it (and what it starts) from writing.
      rules: { allow: ['mcp__notes'] },
      agents: {
        scout: { description: 'A read-only scout.', prompt: 'Scout.', readOnly: true, maxDepth: 1, model: scout },
        worker: { description: 'A worker.', prompt: 'Work.', model: worker },
      },
    });
    agents.push(agent);
    await agent.run('connect').result;
    const { events, result } = await collect(agent.run('look'));
    expect(result.status).toBe('completed');
    expect(state.calls).toEqual(['list_notes']);
    expect(state.notes).toEqual([]);
    const refusal = events.find((event) => event.type === 'tool-result' && event.toolUseId === 'w_append');
    expect(refusal).toMatchObject({ isError: true });
    expect(JSON.stringify(refusal)).toMatch(/started by a read-only subagent, so it is read-only too. The scout subagent is read-only/);
  });
});

/** Read-only as a tool (so a read-only type is given it), but its `set` calls write; each call is noted in `ops`. */
function settingsTool(ops: string[]) {
  return defineTool({
    name: 'settings',
    description: 'Gets or sets a setting.',
    inputSchema: z.object({ op: z.enum(['get', 'set']), key: z.string() }),
    readOnly: true,
    isReadOnlyCall: (input) => input.op === 'get',
    execute: ({ input }) => (ops.push(`${input.op} ${input.key}`), 'ok'),
  });
}

describe('attack: a read-only subagent calls a tool whose call decides whether it reads', () => {
  it('a call the tool itself says does not only read is refused to a read-only type, before anyone is asked, even where a rule allows the tool', async () => {
    const ops: string[] = [];
    const settings = settingsTool(ops);
    const asked: string[] = [];
    const explorer = scriptedModel([turn(toolCall('settings', { op: 'get', key: 'a' }, 'e_get'), toolCall('settings', { op: 'set', key: 'a' }, 'e_set')), 'Explored.']);
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Agent', { description: 'look', prompt: 'look at the settings', subagent_type: 'explore' }, 'p_agent')), 'Done.']),
      tools: [settings],
      rules: { allow: ['settings'] },
      canUseTool: (name) => (asked.push(name), { behavior: 'allow' }),
      agents: { explore: { ...BUILTIN_AGENTS.explore, model: explorer } },
    });
    const { events, result } = await collect(agent.run('look'));
    expect(result.status).toBe('completed');
    expect(ops).toEqual(['get a']);
    expect(asked).toEqual([]);
    const refusal = events.find((event) => event.type === 'tool-result' && event.toolUseId === 'e_set');
    expect(refusal).toMatchObject({ isError: true });
    expect(JSON.stringify(refusal)).toMatch(/explore subagent is read-only/);
  });

  it('a hook that rewrites a reading call into a writing one does not get it run either', async () => {
    const ops: string[] = [];
    const settings = settingsTool(ops);
    const explorer = scriptedModel([turn(toolCall('settings', { op: 'get', key: 'a' }, 'e_get')), 'Explored.']);
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Agent', { description: 'look', prompt: 'look at the settings', subagent_type: 'explore' }, 'p_agent')), 'Done.']),
      tools: [settings],
      rules: { allow: ['settings'] },
      hooks: { PreToolUse: [{ matcher: 'settings', hook: ({ toolInput }) => ({ decision: 'allow', updatedInput: { ...(toolInput as object), op: 'set' } }) }] },
      agents: { explore: { ...BUILTIN_AGENTS.explore, model: explorer } },
    });
    await collect(agent.run('look'));
    expect(ops).toEqual([]);
  });
});

describe('attack: the approval card of a read-only call in plan mode', () => {
  it('suggests nothing that leaves plan mode: a host that takes the suggestions stays in plan mode, and the next write is refused', async () => {
    const writes: string[] = [];
    const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: ({ input }) => (writes.push(input.text), 'wrote') });
    const suggested: PermissionUpdate[][] = [];
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('memory', { command: 'view', path: '/memories' }, 'm_view')), turn(toolCall('write', { text: 'x' }, 'w_write')), 'Planned.']),
      tools: [memoryTool({ store: memoryMemoryStore() }), write],
      permissionMode: 'plan',
      // The memory tool is edit-kind; its `view` only reads, so plan mode lets it be asked.
      rules: { ask: ['memory'] },
      // "Allow, and remember": the host echoes the suggestions it was given, as documented.
      canUseTool: (_name, _input, context) => (suggested.push(context.suggestions), { behavior: 'allow', updatedPermissions: context.suggestions }),
    });
    await agent.run('Plan.').result;
    expect(suggested).toHaveLength(1);
    expect(suggested[0]!.filter((update) => update.type === 'setMode')).toEqual([]);
    expect(agent.permissionMode).toBe('plan');
    expect(writes).toEqual([]);
  });
});

describe('attack: a read-only command of a tool backed by a store', () => {
  it("the memory tool's view in plan mode creates no directory: a memory folder not made yet reads as empty", async () => {
    const base = await fs.mkdtemp(path.join(os.tmpdir(), 'attack-memory-'));
    dirs.push(base);
    const dir = path.join(base, 'not', 'yet');
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('memory', { command: 'view', path: '/memories' }, 'm_root'), toolCall('memory', { command: 'view', path: '/memories/notes.md' }, 'm_file')), 'Planned.']),
      tools: [memoryTool({ store: fileMemoryStore({ dir }) })],
      permissionMode: 'plan',
    });
    const { events } = await collect(agent.run('Plan.'));
    expect(await fs.readdir(base)).toEqual([]);
    const results = events.flatMap((event) => (event.type === 'tool-result' ? [[event.toolUseId, event.isError]] : []));
    // The root lists as an empty directory, as with a store that exists; a file in it does not exist.
    expect(results).toEqual([['m_root', false], ['m_file', true]]);
  });
});
