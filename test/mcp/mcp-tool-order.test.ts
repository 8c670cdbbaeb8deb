import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, memorySessionStore, type AgentEvent } from 'agent-harness';
import { scriptedModel, turn } from 'agent-harness/testing';

// The tools are the start of every request, and the prompt cache is keyed on that start: an MCP
// server may list its tools in another order on another connection (a map, a directory listing,
// a redeploy), and a host that makes an agent per request connects every time. The request's
// tool list must not follow the listing's order, or each such request writes the whole history
// to the cache again.

function server(names: readonly string[]) {
  return () => {
    const made = new McpServer({ name: 'catalog', version: '1.0.0' });
    for (const name of names) made.registerTool(name, { description: `The ${name} tool.`, inputSchema: { id: z.string() } }, async () => ({ content: [{ type: 'text', text: name }] }));
    return made;
  };
}

const ORDERS = [
  ['search_orders', 'get_order', 'refund_order', 'Cancel-Order', 'archive.order'],
  ['archive.order', 'refund_order', 'Cancel-Order', 'get_order', 'search_orders'],
  ['get_order', 'archive.order', 'search_orders', 'Cancel-Order', 'refund_order'],
];

describe('MCP tools in the request', () => {
  it('go in the same order whatever order the server lists them in, so a resumed session is not warned about its prefix', async () => {
    const store = memorySessionStore();
    let sessionId: string | undefined;
    const sent: string[][] = [];
    const warnings: string[] = [];
    for (const order of ORDERS) {
      const model = scriptedModel([turn('Done.')]);
      const agent = createAgent({ model, store, ...(sessionId ? { resume: sessionId } : {}), todoWrite: false, exitPlanMode: false, mcpServers: { shop: { type: 'sdk', server: server(order) } } });
      agent.on('warning', (event: Extract<AgentEvent, { type: 'warning' }>) => warnings.push(event.message));
      await agent.ready;
      expect((await agent.run('Look up order 7.').result).status).toBe('completed');
      sent.push((model.requests[0]!.request.tools as Array<{ name: string }>).map((tool) => tool.name));
      sessionId = agent.sessionId;
      await agent.close();
    }
    expect(sent[0]).toHaveLength(5);
    expect(sent[1]).toEqual(sent[0]);
    expect(sent[2]).toEqual(sent[0]);
    expect(warnings).toEqual([]);
    // By the model's names, in UTF-16 order (upper case before lower).
    expect(sent[0]).toEqual([...sent[0]!].sort());
  });
});
