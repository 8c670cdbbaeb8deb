// Read-only subagent types and MCP tools whose readOnlyHint changes (tools/list_changed).
import { afterEach, describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS, createAgent, type Agent, type AgentEvent, type AgentOptions, type ModelRequest, type ToolDefinition } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect, deferred } from '../helpers.js';
import { createNotesServer } from '../mcp/fixtures/notes-server.js';

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

const explore = (id: string) => toolCall('Agent', { description: 'look around', prompt: 'look at the notes', subagent_type: 'explore' }, id);

/**
 * A notes server with `peek` (read-only) and `jot` (not), an agent on it with a read-only
 * `explore` subagent, and `flip()`: the server says `peek` may change things and `jot` only reads.
 * The host allows every call it is asked about (or `rules` allow the server's tools outright), so
 * only the subagent's type keeps it from what is not read-only.
 */
function setup(childScript: Parameters<typeof scriptedModel>[0], parentScript: Parameters<typeof scriptedModel>[0], options: Partial<AgentOptions> = {}) {
  const calls: string[] = [];
  const asked: string[] = [];
  const server = createNotesServer();
  const tool = (name: string, annotations: object) => server.registerTool(name, { description: `${name}s the notes.`, annotations }, async () => (calls.push(name), { content: [{ type: 'text', text: `${name} done` }] }));
  const peek = tool('peek', { readOnlyHint: true });
  const jot = tool('jot', { readOnlyHint: false });
  const child = scriptedModel(childScript);
  const agent = createAgent({
    model: scriptedModel(parentScript),
    mcpServers: { notes: { type: 'sdk', server } },
    agents: { explore: { ...BUILTIN_AGENTS.explore, model: child } },
    canUseTool: (name) => (asked.push(name), { behavior: 'allow' }),
    ...options,
  });
  agents.push(agent);
  const flip = async () => {
    const changed = deferred();
    agent.on('mcp-server-status', () => changed.resolve());
    peek.update({ annotations: { destructiveHint: true } });
    jot.update({ annotations: { readOnlyHint: true } });
    await changed.promise;
  };
  return { agent, child, calls, asked, flip };
}

const offered = (request: ModelRequest) => (request.tools as ToolDefinition[]).map((tool) => tool.name).filter((name) => name.startsWith('mcp__'));
const results = (events: AgentEvent[]) =>
  events.flatMap((event) => (event.type === 'tool-result' && event.agentId !== undefined ? [[event.toolName, event.isError] as const] : []));

describe('a read-only subagent and MCP tools whose readOnlyHint changes', () => {
  it.each([
    { host: 'a host that allows every call', options: {} },
    { host: 'a rule that allows the server', options: { canUseTool: undefined, rules: { allow: ['mcp__notes'] } } },
  ])('follows the latest listing when the subagent starts after the change ($host)', async ({ options }) => {
    const { agent, child, calls, asked, flip } = setup(
      [turn(toolCall('mcp__notes__peek', {}, 'c_peek'), toolCall('mcp__notes__jot', {}, 'c_jot')), 'Explored.'],
      ['Connected.', turn(explore('p1')), 'Done.'],
      options,
    );
    await agent.run('connect').result;
    await flip();
    const { events, result } = await collect(agent.run('explore'));
    expect(result.status).toBe('completed');
    expect(calls).toEqual(['jot']);
    expect(results(events)).toEqual([
      ['mcp__notes__peek', true],
      ['mcp__notes__jot', false],
    ]);
    // Every MCP tool is offered (its listing may change while the subagent runs); each call is checked.
    expect(offered(child.requests[0]!.request)).toEqual(expect.arrayContaining(['mcp__notes__peek', 'mcp__notes__jot']));
    // Refused before anyone was asked; what only reads needs no question.
    expect(asked).toEqual([]);
  });

  it.each([
    { host: 'a host that allows every call', options: {} },
    { host: 'a rule that allows the server', options: { canUseTool: undefined, rules: { allow: ['mcp__notes'] } } },
  ])('follows the latest listing when it changes while the subagent runs ($host)', async ({ options }) => {
    const changed = deferred();
    const { agent, child, calls, flip } = setup(
      [
        turn(toolCall('mcp__notes__peek', {}, 'c_peek1')),
        // The server's listing changes between the subagent's turns.
        async () => (await changed.promise, turn(toolCall('mcp__notes__peek', {}, 'c_peek2'), toolCall('mcp__notes__jot', {}, 'c_jot'))),
        'Explored.',
      ],
      ['Connected.', turn(explore('p1')), 'Done.'],
      options,
    );
    await agent.run('connect').result;
    const run = agent.run('explore');
    const events: AgentEvent[] = [];
    const collecting = (async () => {
      for await (const event of run) events.push(event);
    })();
    // Its first call ran while `peek` was read-only.
    while (calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await flip();
    changed.resolve();
    await collecting;
    expect((await run.result).status).toBe('completed');
    expect(calls).toEqual(['peek', 'jot']);
    expect(results(events)).toEqual([
      ['mcp__notes__peek', false],
      ['mcp__notes__peek', true],
      ['mcp__notes__jot', false],
    ]);
    const refusal = events.find((event) => event.type === 'tool-result' && event.toolUseId === 'c_peek2');
    expect(JSON.stringify(refusal)).toMatch(/read-only/);
    // What the subagent's model reads never changes mid-run.
    expect(JSON.stringify(child.requests[1]!.request.tools)).toBe(JSON.stringify(child.requests[0]!.request.tools));
  });

  it('refuses a call the host is asked about when the tool stops being read-only before the answer', async () => {
    let flipping: Promise<void> | undefined;
    const { agent, calls, flip } = setup([turn(toolCall('mcp__notes__peek', {}, 'c_peek')), 'Explored.'], ['Connected.', turn(explore('p1')), 'Done.'], {
      rules: { ask: ['mcp__notes__peek'] },
      canUseTool: async () => (await (flipping ??= flip()), { behavior: 'allow' }),
    });
    await agent.run('connect').result;
    const { events } = await collect(agent.run('explore'));
    expect(flipping).toBeDefined();
    expect(calls).toEqual([]);
    expect(results(events)).toEqual([['mcp__notes__peek', true]]);
  });

  it('refuses an approved call of a resumed subagent when the tool stopped being read-only meanwhile', async () => {
    const { agent, calls, flip } = setup([turn(toolCall('mcp__notes__peek', {}, 'c_peek')), 'Explored.'], ['Connected.', turn(explore('p1')), 'Done.'], {
      rules: { ask: ['mcp__notes__peek'] },
      canUseTool: undefined,
    });
    await agent.run('connect').result;
    const waiting = await agent.run('explore').result;
    expect(waiting.status).toBe('awaiting-approval');
    await flip();
    const { events, result } = await collect(agent.resolveApproval(waiting.pendingApprovals[0]!.id, { behavior: 'allow' }));
    expect(result.status).toBe('completed');
    expect(calls).toEqual([]);
    expect(results(events)).toEqual([['mcp__notes__peek', true]]);
  });
});
