// An MCP call the model made, undecided (the host was being asked) or parked for approval when the
// process died, resumed by another agent over the same store: it runs only on the tool the model
// called, of the server it was called on, as that server listed it — the one the host is (or was)
// asked about. Where the name now means something else (another tool of the server, another
// server behind the same name, a changed tool, no server at all), nothing runs and the model is
// told to call again; where it still means the same, it runs once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILTIN_AGENTS, createAgent, memorySessionStore, type Agent, type AgentOptions, type CanUseTool, type MessageEntry, type SessionEntry, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn, type ScriptedModel } from 'agent-harness/testing';

const agents: Agent[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close().catch(() => undefined)));
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

interface ToolSpec {
  name: string;
  description?: string;
}

/** An MCP server calling itself `serverName`, with the given tools; each call is recorded as `<server>:<tool>(<table>)`. */
function dbServer(serverName: string, tools: readonly ToolSpec[], calls: string[]): McpServer {
  const server = new McpServer({ name: serverName, version: '1.0.0' });
  for (const tool of tools) {
    server.registerTool(tool.name, { description: tool.description ?? `The tool ${tool.name}.`, inputSchema: { table: z.string() } }, async ({ table }) => {
      calls.push(`${serverName}:${tool.name}(${table})`);
      return { content: [{ type: 'text', text: `${tool.name} done` }] };
    });
  }
  return server;
}

/** `dbServer` over streamable HTTP on loopback (a server per request); resolves with its URL. */
async function httpDbServer(serverName: string, tools: readonly ToolSpec[], calls: string[]): Promise<string> {
  const http = createServer((request, response) => {
    // Stateless: no stream to open (GET) and no session to end (DELETE).
    if (request.method !== 'POST') return void response.writeHead(405).end();
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', async () => {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      await dbServer(serverName, tools, calls).connect(transport);
      await transport.handleRequest(request, response, JSON.parse(body));
    });
  });
  servers.push(http);
  await new Promise<void>((listening) => http.listen(0, '127.0.0.1', listening));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

const sdk = (make: () => McpServer): AgentOptions['mcpServers'] => ({ db: { type: 'sdk', server: make } });

/** A store the test can "kill": from `die()` on, it stores nothing (what a kill -9 leaves). */
function crashableStore(inner: SessionStore): { store: SessionStore; die: () => void } {
  let dead = false;
  const store: SessionStore = {
    append: async (sessionId, entries, options) => {
      if (dead) throw new Error('the process died');
      return inner.append(sessionId, entries, options);
    },
    load: (sessionId, options) => inner.load(sessionId, options),
    list: () => inner.list(),
    delete: (sessionId) => inner.delete(sessionId),
  };
  return { store, die: () => (dead = true) };
}

/**
 * Process one: the model calls `mcp__db__<name>`; the host is asked and the process dies before
 * it answers. Resolves with the session's id once the question was put.
 */
async function crashWhileAsking(store: SessionStore, mcpServers: AgentOptions['mcpServers'], name: string): Promise<string> {
  const crashable = crashableStore(store);
  let asked!: () => void;
  const question = new Promise<void>((resolve) => (asked = resolve));
  const canUseTool: CanUseTool = (_toolName, _input, context) =>
    new Promise((resolve) => {
      asked();
      context.signal.addEventListener('abort', () => resolve({ behavior: 'deny', message: 'closed' }));
    });
  const first = createAgent({ store: crashable.store, mcpServers, canUseTool, model: scriptedModel([turn(toolCall(name, { table: 'users' }, 'call_1'))]) });
  agents.push(first);
  void first.run('Archive users.').result;
  await question;
  crashable.die();
  return first.sessionId;
}

/** Process two: resumes the session and continues the run; the host allows whatever it is asked. */
async function resumeAndAllow(store: SessionStore, sessionId: string, mcpServers: AgentOptions['mcpServers'], model: ScriptedModel) {
  const asked: string[] = [];
  const second = createAgent({ store, mcpServers, model, resume: sessionId, canUseTool: (toolName) => (asked.push(toolName), { behavior: 'allow' }) });
  agents.push(second);
  await second.ready;
  const result = await second.continue().result;
  return { result, asked, told: JSON.stringify(model.requests.at(-1)?.request.messages ?? []) };
}

describe('an MCP call undecided when the process died (the host was being asked)', () => {
  it('with the same server: asked again and run once', async () => {
    const store = memorySessionStore();
    const calls: string[] = [];
    const sessionId = await crashWhileAsking(store, sdk(() => dbServer('db', [{ name: 'archive' }], calls)), 'mcp__db__archive');
    const { result, asked } = await resumeAndAllow(store, sessionId, sdk(() => dbServer('db', [{ name: 'archive' }], calls)), scriptedModel(['Archived.']));
    expect(result.status).toBe('completed');
    expect(asked).toEqual(['mcp__db__archive']);
    expect(calls).toEqual(['db:archive(users)']);
  });

  it('where the name now means another tool of the server: not asked about, not run; the model is told', async () => {
    const store = memorySessionStore();
    const calls: string[] = [];
    const sessionId = await crashWhileAsking(store, sdk(() => dbServer('db', [{ name: 'archive.table' }], calls)), 'mcp__db__archive_table');
    const model = scriptedModel(['Understood.']);
    const { result, asked, told } = await resumeAndAllow(store, sessionId, sdk(() => dbServer('db', [{ name: 'archive.table' }, { name: 'archive_table' }], calls)), model);
    expect(result.status).toBe('completed');
    expect(asked).toEqual([]);
    expect(calls).toEqual([]);
    expect(told).toMatch(/not run.*\\"archive\.table\\" of the MCP server \\"db\\".*now names its tool \\"archive_table\\"/);
  });

  it('where the server changed the tool (same name, another description): not asked about, not run; the model is told', async () => {
    const store = memorySessionStore();
    const calls: string[] = [];
    const sessionId = await crashWhileAsking(store, sdk(() => dbServer('db', [{ name: 'archive', description: 'Moves a table to cold storage.' }], calls)), 'mcp__db__archive');
    const changed = sdk(() => dbServer('db', [{ name: 'archive', description: 'Moves a table to cold storage and drops the original.' }], calls));
    const { result, asked, told } = await resumeAndAllow(store, sessionId, changed, scriptedModel(['Understood.']));
    expect(result.status).toBe('completed');
    expect(asked).toEqual([]);
    expect(calls).toEqual([]);
    expect(told).toMatch(/not run: the MCP server \\"db\\" changed its tool \\"archive\\"/);
  });

  it('where the configuration points the name at another server: not asked about, not run there; the model is told', async () => {
    const store = memorySessionStore();
    const calls: string[] = [];
    const sessionId = await crashWhileAsking(store, sdk(() => dbServer('staging-db', [{ name: 'archive' }], calls)), 'mcp__db__archive');
    const { result, asked, told } = await resumeAndAllow(store, sessionId, sdk(() => dbServer('production-db', [{ name: 'archive' }], calls)), scriptedModel(['Understood.']));
    expect(result.status).toBe('completed');
    expect(asked).toEqual([]);
    expect(calls).toEqual([]);
    expect(told).toMatch(/not run: the MCP server \\"db\\" is not the server it was.*\\"staging-db\\" then, \\"production-db\\" now/);
  });

  it('where the server is gone (no longer configured, or failing to connect): nothing runs', async () => {
    const goneServers: Array<AgentOptions['mcpServers']> = [{}, { db: { type: 'sdk', connectTimeoutMs: 1000, reconnect: { maxAttempts: 0 }, server: () => Promise.reject(new Error('refused')) } }];
    const told: string[] = [];
    for (const gone of goneServers) {
      const store = memorySessionStore();
      const calls: string[] = [];
      const sessionId = await crashWhileAsking(store, sdk(() => dbServer('db', [{ name: 'archive' }], calls)), 'mcp__db__archive');
      const resumed = await resumeAndAllow(store, sessionId, gone, scriptedModel(['Understood.']));
      expect(resumed.result.status).toBe('completed');
      expect(resumed.asked).toEqual([]);
      expect(calls).toEqual([]);
      told.push(resumed.told);
    }
    // No longer configured: no such tool. Configured but down: the model is told the server is.
    expect(told[0]).toMatch(/No tool named \\"mcp__db__archive\\" exists/);
    expect(told[1]).toMatch(/not run: mcp__db__archive is a tool of the MCP server \\"db\\", which is failed \(.*refused/);
  });

  it('the record is in the store with the model\'s message: the batch folds with it', async () => {
    const store = memorySessionStore();
    const sessionId = await crashWhileAsking(store, sdk(() => dbServer('db', [{ name: 'archive' }], [])), 'mcp__db__archive');
    const resumed = createAgent({ store, model: scriptedModel([]), resume: sessionId });
    agents.push(resumed);
    await resumed.ready;
    const call = resumed.snapshot().openBatch!.calls[0]!;
    expect(call).toMatchObject({ state: 'undecided', mcpTool: { server: 'db', tool: 'archive', serverInfoName: 'db', endpoint: expect.stringMatching(/^[0-9a-f]{16}$/), definition: expect.stringMatching(/^[0-9a-f]{16}$/) } });
  });
});

describe('an MCP call parked for approval, answered in another process', () => {
  /** Process one parks the call (no canUseTool); process two answers it with allow. */
  async function parkThenAllow(before: AgentOptions['mcpServers'], after: AgentOptions['mcpServers'], model: ScriptedModel) {
    const store = memorySessionStore();
    const first = createAgent({ store, mcpServers: before, model: scriptedModel([turn(toolCall('mcp__db__archive', { table: 'users' }, 'call_1'))]) });
    agents.push(first);
    const parked = await first.run('Archive users.').result;
    expect(parked.status).toBe('awaiting-approval');
    await first.close();
    const second = createAgent({ store, mcpServers: after, model, resume: first.sessionId });
    agents.push(second);
    await second.ready;
    const result = await second.resolveApproval(parked.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    return { result, told: JSON.stringify(model.requests.at(-1)?.request.messages ?? []) };
  }

  it('over HTTP, where the configuration now points the name at another URL (a server that calls itself the same): not run there', async () => {
    const calls: string[] = [];
    const staging = await httpDbServer('db', [{ name: 'archive' }], calls);
    const production = await httpDbServer('db', [{ name: 'archive' }], calls);
    const { result, told } = await parkThenAllow({ db: { type: 'http', url: staging } }, { db: { type: 'http', url: production } }, scriptedModel(['Understood.']));
    expect(result.status).toBe('completed');
    expect(calls).toEqual([]);
    expect(told).toMatch(/not run: the MCP server \\"db\\" is not the server it was/);
    // The URL is not in the record: only its fingerprint.
    expect(JSON.stringify(result)).not.toContain(staging);
  });

  it('over HTTP, at the same URL: runs once', async () => {
    const calls: string[] = [];
    const url = await httpDbServer('db', [{ name: 'archive' }], calls);
    const { result } = await parkThenAllow({ db: { type: 'http', url } }, { db: { type: 'http', url } }, scriptedModel(['Archived.']));
    expect(result.status).toBe('completed');
    expect(calls).toEqual(['db:archive(users)']);
  });

  it('where the server changed the tool since the card was drawn: not run', async () => {
    const calls: string[] = [];
    const { result, told } = await parkThenAllow(
      sdk(() => dbServer('db', [{ name: 'archive', description: 'Moves a table to cold storage.' }], calls)),
      sdk(() => dbServer('db', [{ name: 'archive', description: 'Drops the table.' }], calls)),
      scriptedModel(['Understood.']),
    );
    expect(result.status).toBe('completed');
    expect(calls).toEqual([]);
    expect(told).toMatch(/changed its tool \\"archive\\"/);
  });
});

describe('an MCP call parked for approval, answered in the same process', () => {
  it('after the server changed the tool (a tools/list_changed with a new description): not run', async () => {
    const calls: string[] = [];
    let update!: (description: string) => void;
    const make = () => {
      const server = new McpServer({ name: 'db', version: '1.0.0' });
      const archive = server.registerTool('archive', { description: 'Moves a table to cold storage.', inputSchema: { table: z.string() } }, async ({ table }) => {
        calls.push(`archive(${table})`);
        return { content: [{ type: 'text', text: 'archived' }] };
      });
      update = (description) => archive.update({ description });
      return server;
    };
    const model = scriptedModel([turn(toolCall('mcp__db__archive', { table: 'users' }, 'call_1')), 'Understood.']);
    const agent = createAgent({ mcpServers: sdk(make), model });
    agents.push(agent);
    const parked = await agent.run('Archive users.').result;
    expect(parked.status).toBe('awaiting-approval');
    // The server's new listing arrives: its state is reported again once the agent has read it.
    const relisted = new Promise<void>((resolve) => agent.on('mcp-server-status', () => resolve()));
    update('Drops the table.');
    await relisted;
    const result = await agent.resolveApproval(parked.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(result.status).toBe('completed');
    expect(calls).toEqual([]);
    expect(JSON.stringify(model.requests.at(-1)!.request.messages)).toMatch(/changed its tool \\"archive\\"/);
  });
});

describe('a hostile model naming its MCP call "__proto__"', () => {
  it('records it like any other: parked, resumed from the store and from a snapshot, run once on the tool it named', async () => {
    const store = memorySessionStore();
    const calls: string[] = [];
    const first = createAgent({ store, mcpServers: sdk(() => dbServer('db', [{ name: 'archive' }], calls)), model: scriptedModel([turn(toolCall('mcp__db__archive', { table: 'users' }, '__proto__'))]) });
    agents.push(first);
    const parked = await first.run('Archive users.').result;
    expect(parked.pendingApprovals[0]!.mcpTool).toMatchObject({ server: 'db', tool: 'archive' });
    const snapshot = first.snapshot();
    expect(Object.getPrototypeOf(snapshot.openBatch!.calls[0])).toBe(Object.prototype);
    // The record is under the call's own key in the stored message, not its prototype.
    const stored: SessionEntry[] = [];
    for await (const entry of store.load(first.sessionId)) stored.push(entry);
    const message = stored.find((entry) => entry.kind === 'message' && entry.mcpTools !== undefined) as MessageEntry;
    expect(Object.hasOwn(message.mcpTools!, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(message.mcpTools))).toMatchObject({ ['__proto__']: { server: 'db', tool: 'archive' } });
    await first.close();
    for (const resume of [first.sessionId, snapshot]) {
      const second = createAgent({ store: typeof resume === 'string' ? store : undefined, mcpServers: sdk(() => dbServer('db', [{ name: 'archive' }], calls)), model: scriptedModel(['Archived.']), resume });
      agents.push(second);
      await second.ready;
      expect(second.snapshot().openBatch!.calls[0]!.mcpTool).toMatchObject({ server: 'db', tool: 'archive' });
      await second.close();
    }
    const third = createAgent({ store, mcpServers: sdk(() => dbServer('db', [{ name: 'archive' }], calls)), model: scriptedModel(['Archived.']), resume: first.sessionId });
    agents.push(third);
    await third.ready;
    expect((await third.resolveApproval(parked.pendingApprovals[0]!.id, { behavior: 'allow' }).result).status).toBe('completed');
    expect(calls).toEqual(['db:archive(users)']);
  });
});

describe('a subagent\'s MCP call', () => {
  const delegate = toolCall('Agent', { description: 'archive', prompt: 'Archive users.', subagent_type: 'general-purpose' }, 'p1');
  const withChild = (model: ScriptedModel) => ({ 'general-purpose': { ...BUILTIN_AGENTS['general-purpose'], model } });

  it('undecided when the process died, resumed where the name points at another server: the subagent\'s call is answered as interrupted, nothing is asked or run', async () => {
    const store = memorySessionStore();
    const calls: string[] = [];
    const crashable = crashableStore(store);
    let asked!: () => void;
    const question = new Promise<void>((resolve) => (asked = resolve));
    const first = createAgent({
      store: crashable.store,
      mcpServers: sdk(() => dbServer('staging-db', [{ name: 'archive' }], calls)),
      model: scriptedModel([turn(delegate)]),
      agents: withChild(scriptedModel([turn(toolCall('mcp__db__archive', { table: 'users' }, 'c1'))])),
      canUseTool: (toolName, _input, context) =>
        new Promise((resolve) => {
          if (toolName !== 'mcp__db__archive') return resolve({ behavior: 'allow' });
          asked();
          context.signal.addEventListener('abort', () => resolve({ behavior: 'deny', message: 'closed' }));
        }),
    });
    agents.push(first);
    void first.run('Delegate the archiving.').result;
    await question;
    crashable.die();
    const questions: string[] = [];
    const second = createAgent({
      store,
      resume: first.sessionId,
      mcpServers: sdk(() => dbServer('production-db', [{ name: 'archive' }], calls)),
      model: scriptedModel(['Done.']),
      agents: withChild(scriptedModel(['Archived.'])),
      canUseTool: (toolName) => (questions.push(toolName), { behavior: 'allow' }),
    });
    agents.push(second);
    await second.ready;
    expect((await second.continue().result).status).toBe('completed');
    expect(calls).toEqual([]);
    expect(questions).toEqual([]);
  });

  it('parked for approval, answered in a process where the name points at another server: refused, the subagent is told', async () => {
    const store = memorySessionStore();
    const calls: string[] = [];
    const first = createAgent({
      store,
      mcpServers: sdk(() => dbServer('staging-db', [{ name: 'archive' }], calls)),
      model: scriptedModel([turn(delegate)]),
      agents: withChild(scriptedModel([turn(toolCall('mcp__db__archive', { table: 'users' }, 'c1'))])),
      rules: { allow: ['Agent'] },
    });
    agents.push(first);
    const parked = await first.run('Delegate the archiving.').result;
    expect(parked.status).toBe('awaiting-approval');
    expect(parked.pendingApprovals[0]).toMatchObject({ toolName: 'mcp__db__archive', mcpTool: { server: 'db', serverInfoName: 'staging-db' } });
    await first.close();
    const child = scriptedModel(['Could not archive.']);
    const second = createAgent({ store, resume: first.sessionId, mcpServers: sdk(() => dbServer('production-db', [{ name: 'archive' }], calls)), model: scriptedModel(['Done.']), agents: withChild(child), rules: { allow: ['Agent'] } });
    agents.push(second);
    await second.ready;
    expect((await second.resolveApproval(parked.pendingApprovals[0]!.id, { behavior: 'allow' }).result).status).toBe('completed');
    expect(calls).toEqual([]);
    expect(JSON.stringify(child.requests.at(-1)?.request.messages ?? [])).toMatch(/not run: the MCP server \\"db\\" is not the server it was/);
  });
});
