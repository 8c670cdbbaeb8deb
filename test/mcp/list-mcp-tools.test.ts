import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { listMcpTools } from '../../src/mcp/list-mcp-tools.js';

/** A server played on the client's side of the wire, listing one tool per page for `pages` pages. */
function pagingTransport(pages: number): Transport {
  let page = 0;
  const transport: Transport = {
    start: async () => undefined,
    close: async () => transport.onclose?.(),
    send: async (message) => {
      const request = message as { id?: number; method?: string; params?: { protocolVersion?: string } };
      if (request.id === undefined) return;
      const reply =
        request.method === 'initialize'
          ? { result: { protocolVersion: request.params!.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'pager', version: '1.0.0' } } }
          : { result: { tools: [{ name: `tool_${page}`, inputSchema: { type: 'object' } }], ...(++page < pages ? { nextCursor: `after-${page}` } : {}) } };
      queueMicrotask(() => transport.onmessage?.({ jsonrpc: '2.0', id: request.id!, ...reply } as never));
    },
  };
  return transport;
}

describe('listMcpTools', () => {
  it('reads every page under the caller\'s signal and leaves no abort listener on it', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(pagingTransport(60));
    const controller = new AbortController();
    const tools = await listMcpTools(client, { signal: controller.signal, timeoutMs: 5_000 });
    expect(tools.map((tool) => tool.name)).toHaveLength(60);
    expect(tools.at(-1)!.name).toBe('tool_59');
    // The MCP SDK never removes the listener it adds to a request's signal: each page has its own.
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await client.close();
  });

  it('a signal aborted before or during the listing stops it with the signal\'s reason', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(pagingTransport(1_000));
    const aborted = new AbortController();
    aborted.abort(new Error('closed before'));
    await expect(listMcpTools(client, { signal: aborted.signal, timeoutMs: 5_000 })).rejects.toThrow(/closed before/);
    const later = new AbortController();
    const listing = listMcpTools(client, { signal: later.signal, timeoutMs: 5_000 });
    later.abort(new Error('closed during'));
    await expect(listing).rejects.toThrow(/closed during/);
    expect(getEventListeners(later.signal, 'abort')).toHaveLength(0);
    await client.close();
  });
});
