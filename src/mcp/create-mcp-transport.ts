import { McpConnectionError } from '../errors/mcp-connection-error.js';
import { loadMcpHttpSdk, loadMcpSdk } from './load-mcp-sdk.js';
import type { McpServerConfig, McpServerLike, McpTransportLike } from './mcp-server-config.js';
import { describeThrown } from '../errors/describe-thrown.js';

/** A transport ready to connect, and what to close with it. */
export interface CreatedTransport {
  transport: McpTransportLike;
  /** An in-process server made for this connection, closed when the connection closes. */
  ownedServer?: McpServerLike;
}

/**
 * Makes a fresh transport for one connection attempt: streamable HTTP, an in-memory pair linked
 * to an in-process server, or the factory of a stdio or custom transport.
 * @throws McpConnectionError when an in-process server object is already connected elsewhere.
 */
export async function createMcpTransport(name: string, config: McpServerConfig): Promise<CreatedTransport> {
  switch (config.type) {
    case 'http': {
      const { StreamableHTTPClientTransport } = await loadMcpHttpSdk();
      const transport = new StreamableHTTPClientTransport(new URL(config.url), {
        ...(config.headers ? { requestInit: { headers: config.headers } } : {}),
        ...(config.authProvider ? { authProvider: config.authProvider as never } : {}),
      });
      return { transport: transport as unknown as McpTransportLike };
    }
    case 'sdk': {
      const { InMemoryTransport } = await loadMcpSdk();
      const made = typeof config.server === 'function';
      const server = made ? await (config.server as () => McpServerLike | Promise<McpServerLike>)() : (config.server as McpServerLike);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      try {
        await server.connect(serverSide);
      } catch (cause) {
        throw new McpConnectionError(
          `The in-process MCP server "${name}" could not be connected: ${describeThrown(cause)}. A server object serves one connection at a time; when several agents or forks use it, pass a function that makes one: { type: 'sdk', server: () => createServer() }, or share one connection between them: sharedMcpServer({ name, server: { type: 'sdk', server } }).`,
          { server: name, cause },
        );
      }
      return { transport: clientSide as unknown as McpTransportLike, ...(made ? { ownedServer: server } : {}) };
    }
    case 'stdio':
    case 'transport':
      return { transport: await config.transport!() };
  }
}
