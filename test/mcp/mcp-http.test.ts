import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, type Agent, type AgentOptions } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect, deferred } from '../helpers.js';
import { startHttpNotesServer, type HttpNotesServer } from './fixtures/http-notes-server.js';

const agents: Agent[] = [];
const servers: HttpNotesServer[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(options: Parameters<typeof startHttpNotesServer>[0] = {}) {
  const server = await startHttpNotesServer(options);
  servers.push(server);
  return server;
}

function agentWith(options: Partial<AgentOptions> & Pick<AgentOptions, 'model' | 'mcpServers'>) {
  const agent = createAgent({ rules: { allow: ['mcp__notes'] }, ...options });
  agents.push(agent);
  return agent;
}

describe('MCP servers over streamable HTTP ({ type: "http", url })', () => {
  it('connects to a loopback server, sends the configured headers, and calls its tools', async () => {
    const server = await serve({ token: 'secret' });
    const model = scriptedModel([turn(toolCall('mcp__notes__append_note', { text: 'eggs' })), turn(toolCall('mcp__notes__list_notes', {})), 'Done.']);
    const agent = agentWith({ model, mcpServers: { notes: { type: 'http', url: server.url, headers: { authorization: 'Bearer secret' } } } });
    const { events, result } = await collect(agent.run('note eggs'));
    expect(result.status).toBe('completed');
    expect(events.filter((event) => event.type === 'tool-result').map((event) => event.content)).toEqual(['Saved note 1.', 'eggs']);
    expect(agent.mcpServers[0]).toMatchObject({ transport: 'http', status: 'connected', serverInfo: { name: 'notes', version: '1.2.3' } });
    expect(server.requests).toEqual(expect.arrayContaining(['initialize', 'tools/list', 'tools/call:append_note', 'tools/call:list_notes']));
  });

  it('an agent dropped without close() is collected though its HTTP session keeps a stream open, and the stream is closed then', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const server = await serve({ stateful: true });
    let collected = false;
    const watch = new FinalizationRegistry<string>(() => {
      collected = true;
    });
    await (async () => {
      const model = scriptedModel([turn(toolCall('mcp__notes__append_note', { text: 'kept' })), 'Noted.']);
      // Not in `agents`: nothing but its HTTP connection could still reach it.
      const agent = createAgent({ model, mcpServers: { notes: { type: 'http', url: server.url } }, rules: { allow: ['mcp__notes'] } });
      expect((await agent.run('note it').result).status).toBe('completed');
      expect(agent.mcpServers[0]).toMatchObject({ transport: 'http', status: 'connected' });
      watch.register(agent, 'agent');
    })();
    // The client keeps a GET stream open for the server's messages: a socket, a root for the collector.
    for (let round = 0; round < 100 && server.openStreams === 0; round++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.openStreams).toBe(1);
    for (let round = 0; round < 100 && !(collected && server.openStreams === 0); round++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(collected).toBe(true);
    expect(server.openStreams).toBe(0);
    expect(server.state.notes).toEqual(['kept']);
  });

  it('reports a server that asks for authorization as needs-auth, and the agent runs without it', async () => {
    const server = await serve({ token: 'secret' });
    const agent = agentWith({ model: scriptedModel(['No notes today.']), mcpServers: { notes: { type: 'http', url: server.url } } });
    const statuses: string[] = [];
    agent.on('mcp-server-status', (event) => statuses.push(event.status));
    const result = await agent.run('hi').result;
    expect(result.status).toBe('completed');
    expect(statuses).toEqual(['needs-auth']);
    expect(agent.mcpServers[0]).toMatchObject({ status: 'needs-auth', tools: [] });
    expect(agent.mcpServers[0]!.error).toMatch(/asks for authorization.*headers, or an authProvider, in mcpServers\.notes/);
  });

  it('answers a call whose connection drops mid-call with an error result; the run goes on and the next call reconnects', async () => {
    const server = await serve();
    const model = scriptedModel([
      turn(toolCall('mcp__notes__drop_connection', {})),
      turn(toolCall('mcp__notes__append_note', { text: 'after the drop' })),
      'Recovered.',
    ]);
    const agent = agentWith({ model, mcpServers: { notes: { type: 'http', url: server.url, reconnect: { initialDelayMs: 1 } } } });
    const { events, result } = await collect(agent.run('go'));
    expect(result.status).toBe('completed');
    const [dropped, appended] = events.filter((event) => event.type === 'tool-result');
    expect(dropped!.isError).toBe(true);
    expect(dropped!.content).toMatch(/MCP server "notes"/);
    expect(appended).toMatchObject({ isError: false, content: 'Saved note 1.' });
    expect(server.state.notes).toEqual(['after the drop']);
  });

  it('fails calls while the server is down and reaches it again once it is back on its port', async () => {
    const first = await serve();
    const state = first.state;
    const model = scriptedModel([]);
    const agent = agentWith({ model, mcpServers: { notes: { type: 'http', url: first.url, reconnect: { maxAttempts: 1, initialDelayMs: 1 } } } });
    await agent.ready;
    await first.close();
    model.push(turn(toolCall('mcp__notes__append_note', { text: 'lost' })), 'Down.');
    const down = await collect(agent.run('while down'));
    expect(down.events.find((event) => event.type === 'tool-result')).toMatchObject({ isError: true, content: expect.stringMatching(/MCP server "notes"/) });
    const again = await serve({ port: first.port, state });
    model.push(turn(toolCall('mcp__notes__append_note', { text: 'kept' })), 'Up.');
    const up = await collect(agent.run('back up'));
    expect(up.events.find((event) => event.type === 'tool-result')).toMatchObject({ isError: false, content: 'Saved note 1.' });
    expect(again.state.notes).toEqual(['kept']);
    expect(agent.mcpServers[0]!.status).toBe('connected');
  });

  it('interrupts a call the server holds open', async () => {
    const server = await serve();
    const model = scriptedModel([turn(toolCall('mcp__notes__hang', {}))]);
    const agent = agentWith({ model, mcpServers: { notes: { type: 'http', url: server.url } } });
    const called = deferred();
    agent.on('tool-call', () => called.resolve());
    const run = agent.run('wait');
    await called.promise;
    while (!server.state.calls.includes('hang')) await new Promise((resolve) => setImmediate(resolve));
    agent.interrupt();
    expect((await run.result).status).toBe('interrupted');
  });
});
