import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigurationError,
  createAgent,
  isServerToolDefinition,
  type Agent,
  type AgentEvent,
  type AgentOptions,
  type McpServerStatusEvent,
  type PermissionRequestEvent,
  type ToolDefinition,
} from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect, deferred } from '../helpers.js';
import { createNotesServer, PIXEL_PNG, type NotesServerState } from './fixtures/notes-server.js';
import { memorySessionStore } from 'agent-harness';

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

function newState(): NotesServerState {
  return { notes: [], calls: [], cancelled: false };
}

function agentWith(options: Partial<AgentOptions> & Pick<AgentOptions, 'model'>, state = newState()) {
  const agent = createAgent({ mcpServers: { notes: { type: 'sdk', server: () => createNotesServer(state) } }, ...options });
  agents.push(agent);
  return { agent, state };
}

const functionNames = (tools: readonly unknown[]) => (tools as ToolDefinition[]).filter((tool) => !isServerToolDefinition(tool)).map((tool) => tool.name);

describe('MCP servers in process ({ type: "sdk", server })', () => {
  it('offers the server tools as mcp__<server>__<tool> with their JSON Schema, by name (not in the listing order), after the host tools and before the built-ins', async () => {
    const model = scriptedModel(['Hello.']);
    const { agent } = agentWith({ model });
    await agent.run('hi').result;
    const tools = model.requests[0]!.request.tools as ToolDefinition[];
    // The server lists list_notes, append_note, delete_all_notes, note_picture, failing_tool, throwing_tool, hang.
    expect(functionNames(tools)).toEqual([
      'mcp__notes__append_note',
      'mcp__notes__delete_all_notes',
      'mcp__notes__failing_tool',
      'mcp__notes__hang',
      'mcp__notes__list_notes',
      'mcp__notes__note_picture',
      'mcp__notes__throwing_tool',
      'TodoWrite',
      'ExitPlanMode',
    ]);
    const append = tools.find((tool) => tool.name === 'mcp__notes__append_note')!;
    expect(append.description).toBe('Appends a note.');
    expect(append.input_schema).toMatchObject({ type: 'object', properties: { text: { type: 'string', description: 'The note text' } }, required: ['text'] });
  });

  it('reports each server state: agent.mcpServers and one mcp-server-status event per server once ready', async () => {
    const { agent } = agentWith({ model: scriptedModel([]) });
    const statuses: McpServerStatusEvent[] = [];
    agent.on('mcp-server-status', (event) => statuses.push(event));
    expect(agent.mcpServers).toEqual([]);
    await agent.ready;
    expect(statuses).toHaveLength(1);
    expect(statuses[0]).toMatchObject({ name: 'notes', transport: 'sdk', status: 'connected', serverInfo: { name: 'notes', version: '1.2.3' } });
    expect(agent.mcpServers[0]!.tools).toContain('mcp__notes__hang');
    expect(agent.mcpServers[0]!.skippedTools).toEqual([]);
    // The agent's own connection: not marked shared.
    expect('shared' in agent.mcpServers[0]!).toBe(false);
    await agent.close();
    expect(agent.mcpServers[0]!.status).toBe('closed');
    expect(statuses.at(-1)!.status).toBe('closed');
  });

  it('runs a read-only tool without asking and maps text, image, resources and audio to content blocks', async () => {
    const model = scriptedModel([turn(toolCall('mcp__notes__note_picture', {}, 'call_1')), 'Done.']);
    const { agent } = agentWith({ model });
    const { result, events } = await collect(agent.run('show me'));
    expect(result.status).toBe('completed');
    expect(events.some((event) => event.type === 'permission-request')).toBe(false);
    const toolResult = model.requests[1]!.messages.at(-1)!.content as Array<{ type: string; content: unknown }>;
    expect(toolResult[0]!.content).toEqual([
      { type: 'text', text: 'Here is the picture:' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL_PNG } },
      { type: 'text', text: 'Resource notes://all (text/plain):\nall notes as text' },
      { type: 'text', text: '[Resource notes://archive.zip (application/zip), 4 bytes of binary data, not shown]' },
      { type: 'text', text: '[Audio of type audio/wav (3 bytes) not shown: the model does not take audio]' },
    ]);
  });

  it('asks before a tool that is not read-only, with the server annotations (destructiveHint) in the request and the callback', async () => {
    const model = scriptedModel([turn(toolCall('mcp__notes__delete_all_notes', {}), toolCall('mcp__notes__append_note', { text: 'x' })), 'Done.']);
    const contexts: unknown[] = [];
    const { agent, state } = agentWith({
      model,
      canUseTool: (_name, _input, context) => {
        contexts.push(context.toolAnnotations);
        return { behavior: 'allow' };
      },
    });
    const { events } = await collect(agent.run('clean up'));
    const requests = events.filter((event): event is PermissionRequestEvent => event.type === 'permission-request');
    expect(requests.map((event) => [event.toolName, event.toolAnnotations])).toEqual([
      ['mcp__notes__delete_all_notes', { destructiveHint: true, idempotentHint: true }],
      ['mcp__notes__append_note', { readOnlyHint: false, destructiveHint: false }],
    ]);
    expect(contexts).toEqual(requests.map((event) => event.toolAnnotations));
    expect(state.calls).toEqual(['delete_all_notes', 'append_note']);
  });

  it('keeps pending approvals of MCP tools with their annotations (a card can say "destructive" days later)', async () => {
    const model = scriptedModel([turn(toolCall('mcp__notes__delete_all_notes', {}))]);
    const { agent, state } = agentWith({ model });
    const { result } = await collect(agent.run('clean up'));
    expect(result.status).toBe('awaiting-approval');
    expect(result.pendingApprovals[0]!.toolAnnotations).toEqual({ destructiveHint: true, idempotentHint: true });
    expect(state.calls).toEqual([]);
  });

  it('runs only read-only MCP tools in plan mode (readOnlyHint decides)', async () => {
    const model = scriptedModel([turn(toolCall('mcp__notes__list_notes', {}), toolCall('mcp__notes__append_note', { text: 'no' })), 'Planned.']);
    const { agent, state } = agentWith({ model, permissionMode: 'plan', canUseTool: () => ({ behavior: 'allow' }) });
    const { events } = await collect(agent.run('plan'));
    expect(state.calls).toEqual(['list_notes']);
    const results = new Map(events.filter((event) => event.type === 'tool-result').map((event) => [event.toolName, event.isError]));
    expect(results).toEqual(new Map([['mcp__notes__list_notes', false], ['mcp__notes__append_note', true]]));
  });

  it('turns an error result and a throwing handler into is_error results, and bad input into a validation error before the server sees it', async () => {
    const model = scriptedModel([
      turn(toolCall('mcp__notes__failing_tool', {}), toolCall('mcp__notes__throwing_tool', {}), toolCall('mcp__notes__append_note', { txt: 'typo' })),
      'Handled.',
    ]);
    const { agent, state } = agentWith({ model, permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true });
    const { result, events } = await collect(agent.run('try'));
    expect(result.status).toBe('completed');
    const results = new Map(events.filter((event) => event.type === 'tool-result').map((event) => [event.toolName, event]));
    expect([...results.values()].map((event) => event.isError)).toEqual([true, true, true]);
    expect(results.get('mcp__notes__failing_tool')!.content).toBe('the disk is full');
    expect(String(results.get('mcp__notes__throwing_tool')!.content)).toContain('exploded inside the handler');
    expect(String(results.get('mcp__notes__append_note')!.content)).toMatch(/Invalid input for tool "mcp__notes__append_note": text/);
    expect(state.calls).not.toContain('append_note');
  });

  it('applies rules that name a server, a server wildcard, or one tool', async () => {
    const model = scriptedModel([
      turn(toolCall('mcp__notes__append_note', { text: 'a' }), toolCall('mcp__notes__delete_all_notes', {})),
      'Done.',
    ]);
    const { agent, state } = agentWith({ model, rules: { allow: ['mcp__notes'], deny: ['mcp__notes__delete_all_notes'] } });
    const { events } = await collect(agent.run('go'));
    expect(state.calls).toEqual(['append_note']);
    const decisions = events.filter((event) => event.type === 'permission-decision');
    expect(decisions.map((event) => [event.toolName, event.behavior, event.reason])).toEqual([
      ['mcp__notes__append_note', 'allow', { type: 'rule', behavior: 'allow', rule: 'mcp__notes' }],
      ['mcp__notes__delete_all_notes', 'deny', { type: 'rule', behavior: 'deny', rule: 'mcp__notes__delete_all_notes' }],
    ]);
  });

  it('asks for every tool of a server under an ask rule mcp__<server>__*, even read-only ones', async () => {
    const model = scriptedModel([turn(toolCall('mcp__notes__list_notes', {}))]);
    const { agent, state } = agentWith({ model, rules: { ask: ['mcp__notes__*'] } });
    const { result } = await collect(agent.run('list'));
    expect(result.status).toBe('awaiting-approval');
    expect(result.pendingApprovals[0]!.reason).toEqual({ type: 'rule', behavior: 'ask', rule: 'mcp__notes__*' });
    expect(state.calls).toEqual([]);
  });

  it('accepts rules for tools a configured server may add later, and refuses rules for servers it does not have, at once', () => {
    const make = (rules: AgentOptions['rules']) => createAgent({ model: scriptedModel([]), mcpServers: { notes: { type: 'sdk', server: () => createNotesServer() } }, rules });
    const accepted = make({ deny: ['mcp__notes__not_listed_yet'], allow: ['mcp__notes__*'] });
    agents.push(accepted);
    expect(() => make({ deny: ['mcp__github'] })).toThrow(ConfigurationError);
    expect(() => make({ deny: ['mcp__github__create_issue'] })).toThrow(/names no tool of this agent\. The agent has the MCP servers notes/);
    expect(() => make({ deny: ['mcp__notes__*(x)'] })).toThrow(/pattern to a group of tools/);
  });

  it('interrupts a call the server never answers: the run ends interrupted and the server sees the cancellation', async () => {
    const model = scriptedModel([turn(toolCall('mcp__notes__hang', {}))]);
    const { agent, state } = agentWith({ model });
    const started = deferred();
    agent.on('tool-call', () => setImmediate(() => started.resolve()));
    const run = agent.run('wait');
    await started.promise;
    while (!state.calls.includes('hang')) await new Promise((resolve) => setImmediate(resolve));
    agent.interrupt();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    while (!state.cancelled) await new Promise((resolve) => setImmediate(resolve));
    expect(state.cancelled).toBe(true);
  });

  it('refuses to share one server object between two agents, with a message that names the fix', async () => {
    const server = createNotesServer();
    const first = createAgent({ model: scriptedModel([]), mcpServers: { notes: { type: 'sdk', server } } });
    const second = createAgent({ model: scriptedModel([]), mcpServers: { notes: { type: 'sdk', server } } });
    agents.push(first, second);
    await Promise.all([first.ready, second.ready]);
    const statuses = [first.mcpServers[0]!, second.mcpServers[0]!];
    expect(statuses.map((state) => state.status).sort()).toEqual(['connected', 'failed']);
    expect(statuses.find((state) => state.status === 'failed')!.error).toMatch(/server: \(\) => createServer\(\)/);
  });

  it('gives a fork its own connection', async () => {
    const state = newState();
    const model = scriptedModel(['First.', turn(toolCall('mcp__notes__append_note', { text: 'from the fork' })), 'Forked.']);
    const { agent } = agentWith({ model, rules: { allow: ['mcp__notes'] } }, state);
    await agent.run('one').result;
    const fork = await agent.fork();
    agents.push(fork);
    await fork.ready;
    expect(fork.mcpServers[0]!.status).toBe('connected');
    await fork.run('two').result;
    expect(state.notes).toEqual(['from the fork']);
    await fork.close();
    expect(agent.mcpServers[0]!.status).toBe('connected');
  });

  it('fails the first run with a clear error when the SDK server function throws, and still starts', async () => {
    const agent = createAgent({
      model: scriptedModel(['Without notes.']),
      mcpServers: {
        notes: {
          type: 'sdk',
          server: () => {
            throw new Error('no database');
          },
        },
      },
    });
    agents.push(agent);
    const events: AgentEvent[] = [];
    agent.on('mcp-server-status', (event) => events.push(event));
    const result = await agent.run('hi').result;
    expect(result.status).toBe('completed');
    expect(agent.mcpServers[0]).toMatchObject({ status: 'failed', tools: [] });
    expect(agent.mcpServers[0]!.error).toMatch(/could not be connected: no database/);
    expect(events).toHaveLength(1);
  });
});

describe('a server whose tool list changes mid-session', () => {
  it('never changes the tool list the model reads; with a tool search, the new tool is deferred and can be found and called', async () => {
    const state = newState();
    const server = createNotesServer(state);
    const model = scriptedModel(
      [
        'Before.',
        turn(toolCall('ToolSearch', { query: 'weather forecast' }, 'search_1')),
        turn(toolCall('mcp__notes__weather_forecast', { city: 'Oslo' }, 'call_1')),
        'After.',
      ],
      { capabilities: { toolSearch: 'tool-reference' } },
    );
    const agent = createAgent({ model, mcpServers: { notes: { type: 'sdk', server } }, toolSearch: 'client', rules: { allow: ['mcp__notes'] } });
    agents.push(agent);
    await agent.run('one').result;
    const before = JSON.stringify(model.requests[0]!.request.tools);
    const changed = deferred();
    agent.on('mcp-server-status', (event) => {
      if (event.tools.includes('mcp__notes__weather_forecast')) changed.resolve();
    });
    server.registerTool('weather_forecast', { description: 'Forecast for a city.', inputSchema: { city: z.string() } }, async ({ city }) => ({
      content: [{ type: 'text', text: `Sunny in ${city}` }],
    }));
    await changed.promise;
    const { events } = await collect(agent.run('two'));
    const after = model.requests[1]!.request.tools as ToolDefinition[];
    // The loaded part is byte-identical; the new tool is appended, deferred.
    expect(JSON.stringify(after.slice(0, JSON.parse(before).length))).toBe(before);
    expect(after.at(-1)).toMatchObject({ name: 'mcp__notes__weather_forecast', defer_loading: true });
    const results = events.filter((event) => event.type === 'tool-result');
    expect(results[0]!.content).toEqual([{ type: 'tool_reference', tool_name: 'mcp__notes__weather_forecast' }]);
    expect(results[1]!.content).toBe('Sunny in Oslo');
  });

  it('follows the annotations of its latest listing: a tool that drops readOnlyHint no longer runs in plan mode, one that gains it does', async () => {
    const state = newState();
    const server = createNotesServer(state);
    const tool = (name: string, annotations: object) =>
      server.registerTool(name, { description: `${name}s.`, annotations }, async () => (state.calls.push(name), { content: [{ type: 'text', text: `${name} done` }] }));
    const peek = tool('peek', { readOnlyHint: true });
    const jot = tool('jot', { readOnlyHint: false });
    const model = scriptedModel([
      turn(toolCall('mcp__notes__peek', {}, 'p1'), toolCall('mcp__notes__jot', {}, 'j1')),
      'Planned.',
      turn(toolCall('mcp__notes__peek', {}, 'p2'), toolCall('mcp__notes__jot', {}, 'j2')),
      'Planned again.',
    ]);
    const { agent } = agentWith({ model, permissionMode: 'plan', canUseTool: () => ({ behavior: 'allow' }), mcpServers: { notes: { type: 'sdk', server } } }, state);
    await agent.run('plan').result;
    expect(state.calls).toEqual(['peek']);

    const changed = deferred();
    agent.on('mcp-server-status', () => changed.resolve());
    // The server now says `peek` may change things, and `jot` that it only reads.
    peek.update({ annotations: { destructiveHint: true } });
    jot.update({ annotations: { readOnlyHint: true } });
    await changed.promise;
    const { events } = await collect(agent.run('plan again'));
    expect(state.calls).toEqual(['peek', 'jot']);
    const results = new Map(events.filter((event) => event.type === 'tool-result').map((event) => [event.toolName, event.isError]));
    expect(results).toEqual(new Map([['mcp__notes__peek', true], ['mcp__notes__jot', false]]));
    // The tool list the model reads stays byte-identical (annotations are not part of it).
    expect(JSON.stringify(model.requests[2]!.request.tools)).toBe(JSON.stringify(model.requests[0]!.request.tools));
  });

  it('shows the latest annotations with a permission question', async () => {
    const server = createNotesServer();
    const purge = server.registerTool('purge', { description: 'Purges.', annotations: { destructiveHint: false } }, async () => ({ content: [{ type: 'text', text: 'purged' }] }));
    const model = scriptedModel(['Before.', turn(toolCall('mcp__notes__purge', {}, 'd1'))]);
    const { agent } = agentWith({ model, mcpServers: { notes: { type: 'sdk', server } } });
    await agent.run('one').result;
    const changed = deferred();
    agent.on('mcp-server-status', () => changed.resolve());
    purge.update({ annotations: { destructiveHint: true, openWorldHint: true } });
    await changed.promise;
    const result = await agent.run('clean up').result;
    expect(result.pendingApprovals[0]!.toolAnnotations).toEqual({ destructiveHint: true, openWorldHint: true });
  });

  it('without a tool search, leaves the new tool for the next session and says so', async () => {
    const server = createNotesServer();
    const model = scriptedModel(['Before.', 'After.']);
    const agent = createAgent({ model, mcpServers: { notes: { type: 'sdk', server } } });
    agents.push(agent);
    await agent.run('one').result;
    const changed = deferred();
    agent.on('mcp-server-status', (event) => {
      if (event.skippedTools.length) changed.resolve();
    });
    server.registerTool('late_tool', { description: 'Came late.' }, async () => ({ content: [{ type: 'text', text: 'late' }] }));
    await changed.promise;
    await agent.run('two').result;
    expect(JSON.stringify(model.requests[1]!.request.tools)).toBe(JSON.stringify(model.requests[0]!.request.tools));
    expect(agent.mcpServers[0]!.skippedTools).toEqual([{ name: 'late_tool', reason: expect.stringMatching(/next session/) }]);
    expect(agent.mcpServers[0]!.tools).not.toContain('mcp__notes__late_tool');
  });
});

describe('MCP tools and durable approvals', () => {
  it('resumes a pending approval of an MCP tool in a new agent (with a store), which connects its own server and runs the call once', async () => {
    const state = newState();
    const store = memorySessionStore();
    const options = { mcpServers: { notes: { type: 'sdk' as const, server: () => createNotesServer(state) } }, store };
    const first = createAgent({ ...options, model: scriptedModel([turn(toolCall('mcp__notes__append_note', { text: 'approved later' }))]) });
    const statuses: string[] = [];
    first.on('mcp-server-status', (event) => statuses.push(event.status));
    const parked = await first.run('note it').result;
    expect(parked.status).toBe('awaiting-approval');
    const approval = parked.pendingApprovals[0]!;
    expect(approval.toolAnnotations).toEqual({ readOnlyHint: false, destructiveHint: false });
    await first.close();
    expect(statuses).toEqual(['connected', 'closed']);
    expect(state.calls).toEqual([]);

    const second = createAgent({ ...options, model: scriptedModel(['Saved.']), resume: first.sessionId });
    agents.push(second);
    await second.ready;
    expect(second.pendingApprovals.map((pending) => pending.id)).toEqual([approval.id]);
    const resumed = await second.resolveApproval(approval.id, { behavior: 'allow' }).result;
    expect(resumed.status).toBe('completed');
    expect(state.notes).toEqual(['approved later']);
    expect(state.calls).toEqual(['append_note']);
  });
});

describe('an interrupt while an MCP server connects', () => {
  // The server never answers and the connect timeout is an hour: only the interrupt can end the run.
  const hanging = () => createAgent({ model: scriptedModel(['Hello.']), mcpServers: { slow: { type: 'sdk', server: () => new Promise<never>(() => {}), connectTimeoutMs: 3_600_000 } } });

  it('agent.interrupt() ends the run interrupted without waiting for the connect timeout', async () => {
    const agent = hanging();
    agents.push(agent);
    const run = agent.run('Hi.');
    const events: string[] = [];
    agent.on('run-start', () => events.push('run-start'));
    await Promise.resolve();
    agent.interrupt();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(result.turns).toBe(0);
    expect(events).toEqual([]);
    expect(agent.running).toBe(false);
  });

  it('the run options’ signal does the same, and an already-aborted one ends it before it waits', async () => {
    const agent = hanging();
    agents.push(agent);
    const controller = new AbortController();
    const run = agent.run('Hi.', { signal: controller.signal });
    controller.abort();
    expect((await run.result).status).toBe('interrupted');
    expect((await agent.run('Again.', { signal: AbortSignal.abort() }).result).status).toBe('interrupted');
  });

  it('agent.close() stops the connecting at once: the server ends closed, and the agent takes no runs', async () => {
    const agent = hanging();
    await agent.close();
    expect(() => agent.run('Hi.')).toThrow(/closed/);
    await agent.ready;
    expect(agent.mcpServers.map((server) => server.status)).toEqual(['closed']);
  });
});
