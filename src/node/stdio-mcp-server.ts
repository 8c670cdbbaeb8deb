import { ConfigurationError } from '../errors/configuration-error.js';
import type { McpServerConfigBase, McpStdioServerConfig, McpTransportLike } from '../mcp/index.js';
import { anything, checkOptions, isBoolean, isFunction, isNonEmptyString, isPlainObject, isString, isStringArray, isTimerMs, oneOf, recordOf, type OptionsSpec } from '../options/index.js';

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
   * Receives the server's stderr when `stderr` is `'pipe'` (logs, crash reports); refused with
   * any other `stderr`, where it would never be called.
   * @default undefined
   */
  onStderr?: (text: string) => void;
}

const OPTIONS: OptionsSpec<StdioMcpServerOptions> = {
  command: anything, // checked below, with an example
  args: isStringArray,
  env: recordOf(isString, 'an object of variable names and string values'),
  cwd: isNonEmptyString,
  stderr: oneOf(['inherit', 'ignore', 'pipe']),
  onStderr: isFunction,
  deferLoading: isBoolean,
  toolTimeoutMs: isTimerMs,
  maxTotalTimeoutMs: isTimerMs,
  connectTimeoutMs: isTimerMs,
  reconnect: isPlainObject, // its fields are checked by createAgent, with the server's name
};

/** Names hosts bring from the Claude Agent SDK's stdio config or from `child_process`. */
const HINTS: Readonly<Record<string, string>> = {
  type: "stdioMcpServer() sets `type: 'stdio'` itself; leave `type` out.",
  arguments: 'did you mean `args`?',
  argv: 'did you mean `args`?',
};

/** The longest line (one MCP message) read from a stdio MCP server's stdout: 10 MB. */
export const MAX_STDIO_MCP_LINE_BYTES = 10 * 1024 * 1024;

/** The MCP SDK's error for a line past its read buffer (its wording in 1.32). */
const READ_BUFFER_OVERFLOW = /ReadBuffer exceeded maximum size/;

/**
 * Names the reason the SDK's transport ends the connection itself: it reports a line past its
 * read buffer to `onerror`, then closes. The reason is kept on the transport (`closeReason`) for
 * the server's status and the call that was cut off.
 */
function noteLineOverflow(transport: McpTransportLike): void {
  let handler: ((error: Error) => void) | undefined;
  const noting = (given: (error: Error) => void) => (error: Error) => {
    if (error instanceof Error && READ_BUFFER_OVERFLOW.test(error.message)) {
      transport.closeReason = `The server wrote a line (one MCP message) of more than ${MAX_STDIO_MCP_LINE_BYTES / (1024 * 1024)} MB on stdout, the most stdioMcpServer reads, so the connection was closed.`;
    }
    given(error);
  };
  // An accessor, not a wrapper set once: the MCP client reads the handler and sets its own that
  // calls the one it read, so the getter hands out the handler as set, wrapped, never itself.
  Object.defineProperty(transport, 'onerror', {
    configurable: true,
    enumerable: true,
    get: () => (handler ? noting(handler) : undefined),
    set: (value: ((error: Error) => void) | undefined) => {
      handler = value;
    },
  });
}

/**
 * An MCP server started as a child process and spoken to over stdio, for
 * `createAgent({ mcpServers: { name: stdioMcpServer({ command, args }) } })`. The process starts
 * when the agent connects (before its first request), is started again when it dies (with
 * backoff), and ends with `agent.close()`. Needs `@modelcontextprotocol/sdk`.
 *
 * Each message the server writes (one line on its stdout) may be at most
 * {@link MAX_STDIO_MCP_LINE_BYTES} (10 MB), the MCP SDK's read limit. A server that writes a
 * longer line, or one that never ends, loses its connection with a reason that names the limit
 * (the server's status, and the `McpConnectionError` result of a call it cut off), and is started
 * again: the line never grows the host's memory past the limit.
 * @throws ConfigurationError when `command` is missing, an option is unknown or of the wrong type
 *   (`args` a string rather than an array, say), or `onStderr` is given without `stderr: 'pipe'`.
 * @example
 * const agent = createAgent({ model, mcpServers: { notes: stdioMcpServer({ command: 'node', args: ['notes-server.js'] }) } });
 */
export function stdioMcpServer(options: StdioMcpServerOptions): McpStdioServerConfig {
  if (typeof options?.command !== 'string' || options.command === '') {
    throw new ConfigurationError('stdioMcpServer() needs the command that starts the server, e.g. { command: "node", args: ["server.js"] }.');
  }
  // Checked here, not at the first connect: a string `args` would otherwise reach the child
  // process as single characters, or fail inside the MCP SDK long after the call that caused it.
  checkOptions<StdioMcpServerOptions>(options, OPTIONS, { owner: 'stdioMcpServer', usage: 'stdioMcpServer({ command: "node", args: ["server.js"] })', hints: HINTS });
  if (options.onStderr !== undefined && options.stderr !== 'pipe') {
    throw new ConfigurationError(
      `stdioMcpServer: \`onStderr\` receives the server's stderr only with \`stderr: 'pipe'\`, got stderr ${JSON.stringify(options.stderr ?? 'inherit')}; add stderr: 'pipe', or drop onStderr.`,
    );
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
        maxBufferSize: MAX_STDIO_MCP_LINE_BYTES,
      });
      noteLineOverflow(transport as unknown as McpTransportLike);
      // Read even without a listener: an unread pipe would stall a chatty server.
      if (stderr === 'pipe') transport.stderr?.on('data', (chunk: Buffer) => onStderr?.(chunk.toString('utf8')));
      return transport as unknown as McpTransportLike;
    },
  };
}
