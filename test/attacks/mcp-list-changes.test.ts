import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createAgent, memorySessionStore, type Agent, type McpTransportLike } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect, tick } from '../helpers.js';

// Attacks on how the agent follows an MCP server's tool list: a server that announces changes in
// a storm, listings answered out of order (an HTTP server answers concurrent requests in any
// order), and names that collide once normalised, listed in another order after a restart.

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

/**
 * A server played by hand on the client's side of the wire: `list` answers each `tools/list`
 * (called with the request id and a function that sends the answer), `tools/call` writes.
 */
function handPlayedServer(list: (reply: (tools: unknown[]) => void) => void, calls: string[]) {
  let transport!: McpTransportLike;
  const make = (): McpTransportLike => {
    transport = {
      start: async () => undefined,
      close: async () => transport.onclose?.(),
      send: async (message) => {
        const request = message as { id?: number; method?: string; params?: { name?: string; protocolVersion?: string } };
        if (request.id === undefined) return;
        const reply = (body: Record<string, unknown>) => queueMicrotask(() => transport.onmessage?.({ jsonrpc: '2.0', id: request.id, ...body } as never));
        if (request.method === 'initialize') {
          reply({ result: { protocolVersion: request.params!.protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'hand', version: '1.0.0' } } });
        } else if (request.method === 'tools/list') list((tools) => reply({ result: { tools } }));
        else if (request.method === 'tools/call') {
          calls.push(request.params!.name!);
          reply({ result: { content: [{ type: 'text', text: 'written' }] } });
        } else reply({ error: { code: -32601, message: 'unknown method' } });
      },
    };
    return transport;
  };
  const announce = () => transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' } as never);
  return { make, announce };
}

const settle = async () => {
  for (let index = 0; index < 20; index++) await tick();
};

describe('attack: an MCP server that announces tool list changes in a storm', () => {
  it('1,000 announcements cost at most two more listings (one under way, one after it), not 1,000', async () => {
    let listings = 0;
    const server = handPlayedServer((reply) => (listings++, reply([{ name: 'save', inputSchema: { type: 'object' } }])), []);
    const agent = createAgent({ model: scriptedModel(['ok']), mcpServers: { srv: { type: 'transport', transport: server.make } } });
    agents.push(agent);
    await agent.ready;
    expect(listings).toBe(1);
    for (let index = 0; index < 1_000; index++) server.announce();
    await settle();
    expect(listings).toBeLessThanOrEqual(3);
    expect(listings).toBeGreaterThanOrEqual(2);
  });
});

describe('attack: tool listings answered out of order', () => {
  it('an older listing answered after a newer one never brings back a readOnlyHint the server dropped: plan mode refuses the write', async () => {
    // The server's tool as of now; each listing answers with the tool as it was when asked, and the
    // answers are held, then sent newest first.
    let readOnly = true;
    const held: Array<() => void> = [];
    const calls: string[] = [];
    const server = handPlayedServer((reply) => {
      const tools = [{ name: 'save', inputSchema: { type: 'object' }, annotations: { readOnlyHint: readOnly } }];
      held.push(() => reply(tools));
    }, calls);
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('mcp__srv__save', {})), 'Planned.']),
      permissionMode: 'plan',
      canUseTool: () => ({ behavior: 'allow' }),
      mcpServers: { srv: { type: 'transport', transport: server.make } },
    });
    agents.push(agent);
    const ready = agent.ready;
    await settle();
    held.shift()!();
    await ready;
    // A change (a description, say): listed again. Then save starts writing: announced again.
    server.announce();
    await settle();
    readOnly = false;
    server.announce();
    await settle();
    // Every held answer, newest first, until no listing is left.
    while (held.length > 0) {
      for (const answer of held.splice(0).reverse()) answer();
      await settle();
    }
    const { events } = await collect(agent.run('save'));
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({ isError: true });
    expect(calls).toEqual([]);
  });
});

describe('attack: an MCP server that lists two tools of the same normalised name, in another order after a restart', () => {
  it('each name reaches the same tool in every process: a call approved in another process runs the tool that was asked about', async () => {
    const ran: string[] = [];
    // `files.delete` and `files_delete` both become mcp__srv__files_delete; listed in `order`.
    const server = (order: string[]) => () => {
      const made = new McpServer({ name: 'srv', version: '1.0.0' });
      for (const name of order) made.registerTool(name, { description: `The ${name} tool.` }, async () => (ran.push(name), { content: [{ type: 'text' as const, text: `ran ${name}` }] }));
      return made;
    };
    const store = memorySessionStore();
    const names = async (order: string[]) => {
      const agent = createAgent({ model: scriptedModel([]), mcpServers: { srv: { type: 'sdk', server: server(order) } } });
      await agent.ready;
      const tools = agent.mcpServers[0]!.tools;
      await agent.close();
      return tools;
    };
    expect(await names(['files.delete', 'files_delete'])).toEqual(expect.arrayContaining(['mcp__srv__files_delete']));
    // The same names, whatever the order.
    expect((await names(['files.delete', 'files_delete'])).sort()).toEqual((await names(['files_delete', 'files.delete'])).sort());

    const first = createAgent({ model: scriptedModel([turn(toolCall('mcp__srv__files_delete', {}, 'c1'))]), store, sessionId: 'order', mcpServers: { srv: { type: 'sdk', server: server(['files.delete', 'files_delete']) } } });
    expect((await first.run('clean up').result).status).toBe('awaiting-approval');
    await first.close();
    const second = createAgent({ model: scriptedModel(['Done.']), store, resume: 'order', mcpServers: { srv: { type: 'sdk', server: server(['files_delete', 'files.delete']) } } });
    agents.push(second);
    await second.ready;
    expect((await second.resolveApproval(second.pendingApprovals[0]!.id, { behavior: 'allow' }).result).status).toBe('completed');
    // The name that needs no change keeps it: mcp__srv__files_delete is files_delete in both processes.
    expect(ran).toEqual(['files_delete']);
  });
});
