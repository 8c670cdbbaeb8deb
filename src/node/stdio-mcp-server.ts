import { ConfigurationError } from '../errors/configuration-error.js';
import type { McpServerConfigBase, McpStdioServerConfig, McpTransportLike } from '../mcp/index.js';

/** Options of {@link stdioMcpServer}: the Claude Agent SDK's stdio shape, plus the common settings. */
export interface StdioMcpServerOptions extends McpServerConfigBase {
  /** The executable, e.g. `node`, `npx` or `uvx`. */
  command: string;
  /**
   * Its arguments.
   * @default []
   */
  args?: string[];
  /**
   * Environment variables, merged over the SDK's minimal safe environment (PATH, HOME, ...): the
   * host's other variables (API keys, say) are not passed on unless given here.
   * @default the SDK's minimal environment
   */
  env?: Record<string, string>;
  /**
   * Working directory of the process.
   * @default the host's working directory
   */
  cwd?: string;
  /**
   * Where the server's stderr goes: the host's stderr, nowhere, or `onStderr`.
   * @default 'inherit'
   */
  stderr?: 'inherit' | 'ignore' | 'pipe';
  /**
   * Receives the server's stderr when `stderr` is `'pipe'` (logs, crash reports).
   * @default undefined
   */
  onStderr?: (text: string) => void;
}

/**
 * An MCP server started as a child process and spoken to over stdio, for
 * `createAgent({ mcpServers: { name: stdioMcpServer({ command, args }) } })`. The process starts
 * when the agent connects (before its first request), is started again when it dies (with
 * backoff), and ends with `agent.close()`. Needs `@modelcontextprotocol/sdk`.
 *
 * Each message the server writes (one line on its stdout) may be at most 10 MB: the MCP SDK's
 * stdio transport reads no more of a line. A server that writes a longer line, or one that never
 * ends, loses its connection: a call in progress fails with an error result, and the server is
 * started again. A result that large (many full-size images, say) has to be split by the server.
 * @throws ConfigurationError when `command` is missing.
 * @example
 * const agent = createAgent({ model, mcpServers: { notes: stdioMcpServer({ command: 'node', args: ['notes-server.js'] }) } });
 */
export function stdioMcpServer(options: StdioMcpServerOptions): McpStdioServerConfig {
  if (typeof options?.command !== 'string' || options.command === '') {
    throw new ConfigurationError('stdioMcpServer() needs the command that starts the server, e.g. { command: "node", args: ["server.js"] }.');
  }
  const { stderr = 'inherit', onStderr, ...config } = options;
  return {
    ...config,
    type: 'stdio',
    transport: async (): Promise<McpTransportLike> => {
      let StdioClientTransport: typeof import('@modelcontextprotocol/sdk/client/stdio.js').StdioClientTransport;
      try {
        ({ StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js'));
      } catch (cause) {
        throw new ConfigurationError('MCP servers need the @modelcontextprotocol/sdk package, which could not be loaded. Install it next to agent-harness: npm install @modelcontextprotocol/sdk', { cause });
      }
      const transport = new StdioClientTransport({
        command: config.command,
        ...(config.args ? { args: config.args } : {}),
        ...(config.env ? { env: config.env } : {}),
        ...(config.cwd ? { cwd: config.cwd } : {}),
        stderr,
      });
      // Read even without a listener: an unread pipe would stall a chatty server.
      if (stderr === 'pipe') transport.stderr?.on('data', (chunk: Buffer) => onStderr?.(chunk.toString('utf8')));
      return transport as unknown as McpTransportLike;
    },
  };
}
