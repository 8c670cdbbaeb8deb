import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  ConfigurationError,
  createAgent,
  memorySessionStore,
  sharedMcpServer,
  type Agent,
  type AgentOptions,
  type McpServerStatusEvent,
  type SharedMcpServer,
} from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect, deferred } from '../helpers.js';
import { createNotesServer, type NotesServerState } from './fixtures/notes-server.js';

const agents: Agent[] = [];
const servers: SharedMcpServer[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function newState(): NotesServerState {
  return { notes: [], calls: [], cancelled: false };
}

/** A shared notes server that counts the connections it was asked for. */
function sharedNotes(state = newState(), extra: { connectTimeoutMs?: number } = {}) {
  const made = { count: 0 };
  const server = sharedMcpServer({
    name: 'notes',
    server: {
      type: 'sdk',
      server: () => {
        made.count++;
        return createNotesServer(state);
      },
      ...extra,
    },
  });
  servers.push(server);
  return { server, made, state };
}

function agentWith(server: SharedMcpServer, options: Partial<AgentOptions> & Pick<AgentOptions, 'model'>) {
  const agent = createAgent({ mcpServers: { notes: server }, rules: { allow: ['mcp__notes'] }, ...options });
  agents.push(agent);
  return agent;
}

const toolNames = (model: ReturnType<typeof scriptedModel>, index = 0) => (model.requests[index]!.request.tools as Array<{ name: string }>).map((tool) => tool.name);

describe('sharedMcpServer: one connection for many agents', () => {
  it('connects once for every agent, offers the same tools under the same names, and runs each agent’s calls', async () => {
    const { server, made, state } = sharedNotes();
    const models = [0, 1, 2].map((index) => scriptedModel([turn(toolCall('mcp__notes__append_note', { text: `from ${index}` })), 'Saved.']));
    const started = models.map((model) => agentWith(server, { model }));
    await Promise.all(started.map((agent) => agent.run('note it').result));
    expect(made.count).toBe(1);
    expect(state.notes.sort()).toEqual(['from 0', 'from 1', 'from 2']);
    expect(toolNames(models[1]!)).toEqual(toolNames(models[0]!));
    expect(toolNames(models[0]!)).toContain('mcp__notes__note_picture');
    for (const agent of started) expect(agent.mcpServers[0]).toMatchObject({ name: 'notes', transport: 'sdk', status: 'connected', serverInfo: { name: 'notes', version: '1.2.3' }, shared: true });
    expect(server.status).toBe('connected');
    expect(server.agents).toBe(3);
  });

  it('leaves the connection open when an agent closes: the agent reports the server closed, the others go on', async () => {
    const { server, made, state } = sharedNotes();
    const first = agentWith(server, { model: scriptedModel(['Hello.']) });
    const model = scriptedModel(['Hello.', turn(toolCall('mcp__notes__append_note', { text: 'after the first closed' })), 'Saved.']);
    const second = agentWith(server, { model });
    const statuses: McpServerStatusEvent[] = [];
    first.on('mcp-server-status', (event) => statuses.push(event));
    await Promise.all([first.run('hi').result, second.run('hi').result]);
    await first.close();
    expect(first.mcpServers[0]!.status).toBe('closed');
    expect(statuses.map((event) => event.status)).toEqual(['connected', 'closed']);
    // Both events say the server is shared: closed for this agent, open for the others.
    expect(statuses.map((event) => event.shared)).toEqual([true, true]);
    expect(server.status).toBe('connected');
    expect(server.agents).toBe(1);
    expect((await second.run('note').result).status).toBe('completed');
    expect(state.notes).toEqual(['after the first closed']);
    // A third agent after both: still the one connection.
    await second.close();
    await agentWith(server, { model: scriptedModel(['Hi.']) }).run('hi').result;
    expect(made.count).toBe(1);
  });

  it('a fork uses the same connection', async () => {
    const { server, made, state } = sharedNotes();
    const agent = agentWith(server, { model: scriptedModel(['First.', turn(toolCall('mcp__notes__append_note', { text: 'from the fork' })), 'Forked.']) });
    await agent.run('one').result;
    const fork = await agent.fork();
    agents.push(fork);
    await fork.run('two').result;
    expect(state.notes).toEqual(['from the fork']);
    expect(made.count).toBe(1);
    await fork.close();
    expect(agent.mcpServers[0]!.status).toBe('connected');
  });

  it('connect() opens it before the first agent, which then starts without waiting for it', async () => {
    const { server, made } = sharedNotes();
    expect(server.status).toBe('pending');
    await server.connect();
    expect(server.status).toBe('connected');
    const model = scriptedModel(['Hello.']);
    const agent = agentWith(server, { model });
    await agent.ready;
    expect(agent.mcpServers[0]!.status).toBe('connected');
    expect(agent.mcpServers[0]!.tools).toContain('mcp__notes__append_note');
    await agent.run('hi').result;
    expect(toolNames(model)).toContain('mcp__notes__hang');
    await server.connect();
    expect(made.count).toBe(1);
  });

  it('tries a server that failed again when the next agent starts (a server down at boot does not stay down for the pool)', async () => {
    let attempts = 0;
    const server = sharedMcpServer({
      name: 'notes',
      server: {
        type: 'sdk',
        server: () => {
          attempts++;
          if (attempts === 1) throw new Error('database still starting');
          return createNotesServer();
        },
      },
    });
    servers.push(server);
    const early = agentWith(server, { model: scriptedModel(['Without notes.']) });
    await early.ready;
    expect(early.mcpServers[0]).toMatchObject({ status: 'failed', tools: [] });
    expect(early.mcpServers[0]!.error).toMatch(/database still starting/);
    expect(server.status).toBe('failed');
    const model = scriptedModel(['With notes.']);
    const later = agentWith(server, { model });
    await later.ready;
    expect(attempts).toBe(2);
    expect(later.mcpServers[0]!.status).toBe('connected');
    await later.run('hi').result;
    expect(toolNames(model)).toContain('mcp__notes__append_note');
    // The early agent hears the connection come up too.
    expect(early.mcpServers[0]!.status).toBe('connected');
  });

  it('an agent closed while the shared connection is still connecting stops waiting at once; the connection goes on for the others', async () => {
    const started = deferred();
    let finish!: (server: ReturnType<typeof createNotesServer>) => void;
    const server = sharedMcpServer({
      name: 'notes',
      server: {
        type: 'sdk',
        connectTimeoutMs: 3_600_000,
        server: () => {
          started.resolve();
          return new Promise((resolve) => (finish = resolve));
        },
      },
    });
    servers.push(server);
    const leaving = createAgent({ model: scriptedModel(['Hello.']), mcpServers: { notes: server } });
    await started.promise;
    await leaving.close();
    await leaving.ready;
    expect(leaving.mcpServers.map((state) => state.status)).toEqual(['closed']);
    expect(server.status).toBe('pending');
    const staying = agentWith(server, { model: scriptedModel(['Hello.']) });
    finish(createNotesServer());
    await staying.ready;
    expect(staying.mcpServers[0]!.status).toBe('connected');
    expect(server.agents).toBe(1);
  });

  it('reports a list change to every agent using it; each treats it as its own connection would, and the next agent has the tool up front', async () => {
    const state = newState();
    const notes = createNotesServer(state);
    const server = sharedMcpServer({ name: 'notes', server: { type: 'sdk', server: notes } });
    servers.push(server);
    const searching = scriptedModel(['Before.', turn(toolCall('mcp__notes__weather_forecast', { city: 'Oslo' }, 'w1')), 'After.'], { capabilities: { toolSearch: 'tool-reference' } });
    const withSearch = agentWith(server, { model: searching, toolSearch: 'client' });
    const plain = scriptedModel(['Before.', 'After.']);
    const withoutSearch = agentWith(server, { model: plain });
    await Promise.all([withSearch.run('one').result, withoutSearch.run('one').result]);
    const heard = [withSearch, withoutSearch].map((agent) => {
      const changed = deferred();
      agent.on('mcp-server-status', (event) => {
        if (event.tools.includes('mcp__notes__weather_forecast') || event.skippedTools.length) changed.resolve();
      });
      return changed.promise;
    });
    notes.registerTool('weather_forecast', { description: 'Forecast for a city.', inputSchema: { city: z.string() } }, async ({ city }) => ({
      content: [{ type: 'text', text: `Sunny in ${city}` }],
    }));
    await Promise.all(heard);
    const { events } = await collect(withSearch.run('two'));
    expect(events.find((event) => event.type === 'tool-result')!.content).toBe('Sunny in Oslo');
    expect((searching.requests[1]!.request.tools as Array<{ name: string; defer_loading?: boolean }>).at(-1)).toMatchObject({ name: 'mcp__notes__weather_forecast', defer_loading: true });
    await withoutSearch.run('two').result;
    expect(JSON.stringify(plain.requests[1]!.request.tools)).toBe(JSON.stringify(plain.requests[0]!.request.tools));
    expect(withoutSearch.mcpServers[0]!.skippedTools).toEqual([{ name: 'weather_forecast', reason: expect.stringMatching(/next session/) }]);
    // A new agent takes the tool in its prefix, not deferred.
    const next = scriptedModel(['Hi.']);
    await agentWith(server, { model: next }).run('hi').result;
    expect((next.requests[0]!.request.tools as Array<{ name: string; defer_loading?: boolean }>).find((tool) => tool.name === 'mcp__notes__weather_forecast')).toEqual(
      expect.not.objectContaining({ defer_loading: true }),
    );
  });

  it('skips a tool with a bad schema in every agent, with the same reason, and offers the others to each', async () => {
    const server = new Server({ name: 'big', version: '1.0.0' }, { capabilities: { tools: {} } });
    const listed = [
      { name: 'fine', description: 'Fine.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, annotations: { readOnlyHint: true } },
      { name: 'either', description: 'Top-level oneOf.', inputSchema: { type: 'object', properties: { a: { type: 'string' } }, oneOf: [{ required: ['a'] }] } },
    ];
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: `called ${request.params.name}` }] }));
    const shared = sharedMcpServer({ name: 'big', server: { type: 'sdk', server } });
    servers.push(shared);
    for (const index of [0, 1]) {
      const model = scriptedModel([turn(toolCall('mcp__big__fine', { text: 'hi' }, `f${index}`)), 'Done.']);
      const agent = createAgent({ model, mcpServers: { big: shared } });
      agents.push(agent);
      const { events } = await collect(agent.run('go'));
      expect(events.find((event) => event.type === 'tool-result')!.content).toBe('called fine');
      expect(agent.mcpServers[0]!.tools).toEqual(['mcp__big__fine']);
      expect(agent.mcpServers[0]!.skippedTools).toEqual([{ name: 'either', reason: expect.stringMatching(/^The MCP server "big" lists the tool "either" with an input schema that has oneOf at the top level/) }]);
      expect(toolNames(model)).not.toContain('mcp__big__either');
    }
  });

  it('names colliding and long tool names as an agent’s own connection does, in every agent', async () => {
    const listed = ['a.b', 'a_b', `long_${'x'.repeat(80)}`, `long_${'x'.repeat(80)}.`].map((name) => ({ name, description: `Tool ${name}.`, inputSchema: { type: 'object' } }));
    const makeServer = () => {
      const server = new Server({ name: 'odd', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
      server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: `called ${request.params.name}` }] }));
      return server;
    };
    const shared = sharedMcpServer({ name: 'odd', server: { type: 'sdk', server: makeServer } });
    servers.push(shared);
    const namesWith = async (server: AgentOptions['mcpServers']) => {
      const agent = createAgent({ model: scriptedModel([]), mcpServers: server });
      agents.push(agent);
      await agent.ready;
      return agent.mcpServers[0]!.tools;
    };
    const own = await namesWith({ odd: { type: 'sdk', server: makeServer } });
    expect(new Set(own).size).toBe(4);
    expect(own).toContain('mcp__odd__a_b');
    expect(await namesWith({ odd: shared })).toEqual(own);
    expect(await namesWith({ odd: shared })).toEqual(own);
  });

  it('follows the latest annotations in every agent, those started before the change and after it', async () => {
    const state = newState();
    const notes = createNotesServer(state);
    const peek = notes.registerTool('peek', { description: 'Peeks.', annotations: { readOnlyHint: true } }, async () => (state.calls.push('peek'), { content: [{ type: 'text', text: 'peeked' }] }));
    const server = sharedMcpServer({ name: 'notes', server: { type: 'sdk', server: notes } });
    servers.push(server);
    const planning = (id: string) => scriptedModel([turn(toolCall('mcp__notes__peek', {}, `${id}-1`)), 'Planned.', turn(toolCall('mcp__notes__peek', {}, `${id}-2`)), 'Planned again.']);
    const plan = (name: string) => {
      const agent = createAgent({ model: planning(name), permissionMode: 'plan', mcpServers: { notes: server } });
      agents.push(agent);
      return agent;
    };
    const refused = async (agent: Agent) => (await collect(agent.run('plan'))).events.find((event) => event.type === 'tool-result')!.isError;
    // Two agents started before the change (they share the tool made from the first listing).
    const [first, second] = [plan('first'), plan('second')];
    expect(await refused(first)).toBe(false);
    expect(await refused(second)).toBe(false);
    expect(state.calls).toEqual(['peek', 'peek']);
    const heard = [first, second].map((agent) => {
      const changed = deferred();
      agent.on('mcp-server-status', () => changed.resolve());
      return changed.promise;
    });
    await first.close();
    peek.update({ annotations: { destructiveHint: true } });
    await heard[1];
    // The one still open follows it, and so does one started after it; the closed one heard nothing.
    expect(await refused(second)).toBe(true);
    expect(await refused(plan('after'))).toBe(true);
    expect(state.calls).toEqual(['peek', 'peek']);
  });

  it('once closed, its tools answer with an error naming the fix, the agents report it closed, and no new agent takes it', async () => {
    const { server } = sharedNotes();
    const model = scriptedModel(['Hello.', turn(toolCall('mcp__notes__list_notes', {}, 'l1')), 'Could not.']);
    const agent = agentWith(server, { model });
    await agent.run('hi').result;
    await server.close();
    expect(server.closed).toBe(true);
    expect(agent.mcpServers[0]!.status).toBe('closed');
    const { events } = await collect(agent.run('list'));
    const result = events.find((event) => event.type === 'tool-result')!;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/shared server that was closed.*sharedMcpServer\(\)/);
    expect(() => createAgent({ model: scriptedModel([]), mcpServers: { notes: server } })).toThrow(ConfigurationError);
    expect(() => createAgent({ model: scriptedModel([]), mcpServers: { notes: server } })).toThrow(/was closed.*make a new one with sharedMcpServer\(\)/);
    await server.close();
  });

  it('resumes a pending approval made with an agent’s own connection in an agent using the shared server, and runs the call once', async () => {
    const state = newState();
    const store = memorySessionStore();
    const own = createAgent({
      model: scriptedModel([turn(toolCall('mcp__notes__append_note', { text: 'approved later' }))]),
      mcpServers: { notes: { type: 'sdk', server: () => createNotesServer(state) } },
      store,
    });
    const parked = await own.run('note it').result;
    expect(parked.status).toBe('awaiting-approval');
    await own.close();
    const server = sharedMcpServer({ name: 'notes', server: { type: 'sdk', server: () => createNotesServer(state) } });
    servers.push(server);
    const resumed = createAgent({ model: scriptedModel(['Saved.']), mcpServers: { notes: server }, store, resume: own.sessionId });
    agents.push(resumed);
    await resumed.ready;
    const result = await resumed.resolveApproval(parked.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(result.status).toBe('completed');
    expect(state.calls).toEqual(['append_note']);
    expect(state.notes).toEqual(['approved later']);
  });

  it('keeps alive at most the latest 256 agents dropped without close(); older ones are collected and forgotten', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { server } = sharedNotes();
    await server.connect();
    const kept = agentWith(server, { model: scriptedModel(['Hi.']) });
    await kept.ready;
    // Not in `agents`: nothing but the shared server could still reach them.
    for (let index = 0; index < 300; index++) await createAgent({ model: scriptedModel([]), mcpServers: { notes: server } }).ready;
    expect(server.agents).toBe(301);
    for (let round = 0; round < 20 && server.agents > 257; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    // The 44 oldest dropped ones are gone; the first agent, held weakly too, is alive (referenced here).
    expect(server.agents).toBe(257);
    const heard: string[] = [];
    kept.on('mcp-server-status', (event) => heard.push(event.status));
    await server.close();
    expect(heard).toEqual(['closed']);
    await kept.close();
    expect(server.agents).toBe(256);
  });

  it('a closed agent is let go at once, whether held strongly or weakly', async () => {
    const { server } = sharedNotes();
    await server.connect();
    const first = createAgent({ model: scriptedModel([]), mcpServers: { notes: server } });
    await first.ready;
    const rest = [];
    for (let index = 0; index < 260; index++) rest.push(createAgent({ model: scriptedModel([]), mcpServers: { notes: server } }));
    await Promise.all(rest.map((agent) => agent.ready));
    expect(server.agents).toBe(261);
    await first.close();
    expect(server.agents).toBe(260);
    await Promise.all(rest.map((agent) => agent.close()));
    expect(server.agents).toBe(0);
  });
});

describe('sharedMcpServer: checks', () => {
  it('refuses a bad name or server, and a shared server passed to itself, naming the fix', () => {
    expect(() => sharedMcpServer({ name: 'no spaces', server: { type: 'sdk', server: () => createNotesServer() } })).toThrow(/sharedMcpServer: name "no spaces" is not a valid server name/);
    expect(() => sharedMcpServer({ name: 42 as unknown as string, server: { type: 'sdk', server: () => createNotesServer() } })).toThrow(/sharedMcpServer: name must be/);
    expect(() => sharedMcpServer({ name: 'notes', server: { type: 'http', url: 'ftp://x' } })).toThrow(/sharedMcpServer: server\.url must be an http\(s\) URL/);
    expect(() => sharedMcpServer({ name: 'notes', server: { type: 'sdk', server: () => createNotesServer(), toolTimeoutMs: -1 } })).toThrow(/sharedMcpServer: server\.toolTimeoutMs/);
    expect(() => sharedMcpServer({ name: 'notes', server: { type: 'nope' } as never })).toThrow(/sharedMcpServer: server needs a type of/);
    expect(() => sharedMcpServer(undefined as never)).toThrow(ConfigurationError);
    const { server } = sharedNotes();
    expect(() => sharedMcpServer({ name: 'notes', server: server as never })).toThrow(/already a shared server/);
  });

  it('refuses a shared server under another name than its own, or given as mcpServers itself', () => {
    const { server } = sharedNotes();
    expect(() => createAgent({ model: scriptedModel([]), mcpServers: { docs: server } })).toThrow(/mcpServers\.docs is the shared server "notes": give it under its own name/);
    expect(() => createAgent({ model: scriptedModel([]), mcpServers: server as never })).toThrow(/is the shared server "notes" itself; give it by name/);
    expect(() => createAgent({ model: scriptedModel([]), mcpServers: { notes: { type: 'shared' } as never } })).toThrow(/or be a shared server \(sharedMcpServer\(\)\)/);
    // Shaped like one, with every field, but not made by sharedMcpServer(): refused the same way.
    const lookalike = { ...server, type: 'shared', name: 'notes', config: server.config, status: 'connected', connect: async () => {}, close: async () => {} };
    expect(() => createAgent({ model: scriptedModel([]), mcpServers: { notes: lookalike as SharedMcpServer } })).toThrow(/got "shared"/);
    expect(server.status).toBe('pending');
    expect(server.agents).toBe(0);
  });

  it('mixes with an agent’s own servers, which still close with the agent', async () => {
    const { server } = sharedNotes();
    const ownState = newState();
    const model = scriptedModel(['Hi.']);
    const agent = createAgent({ model, mcpServers: { notes: server, scratch: { type: 'sdk', server: () => createNotesServer(ownState) } } });
    await agent.run('hi').result;
    expect(toolNames(model).filter((name) => name.startsWith('mcp__')).slice(0, 2)).toEqual(['mcp__notes__append_note', 'mcp__notes__delete_all_notes']);
    expect(toolNames(model)).toContain('mcp__scratch__list_notes');
    await agent.close();
    expect(agent.mcpServers.map((state) => state.status)).toEqual(['closed', 'closed']);
    expect(server.status).toBe('connected');
  });
});
