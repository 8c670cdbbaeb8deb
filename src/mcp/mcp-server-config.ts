/**
 * MCP server configurations, in the shapes hosts know from the Claude Agent SDK. The types are
 * structural so that the public declarations do not need `@modelcontextprotocol/sdk` installed.
 */

/**
 * An MCP transport as `@modelcontextprotocol/sdk` defines one (`Transport`): stdio, streamable
 * HTTP, in-memory, or any other implementation.
 */
export interface McpTransportLike {
  start(): Promise<void>;
  send(message: unknown, options?: unknown): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: never, extra?: never) => void) | undefined;
  /**
   * Why the transport ended the connection itself, when it did: a sentence, read when the
   * connection closes and named in the server's status and in the error of a call it cut off
   * (`stdioMcpServer` sets it when the server writes a line past its read limit).
   * @default undefined
   */
  closeReason?: string | undefined;
}

/** An MCP server object of `@modelcontextprotocol/sdk` (`McpServer` or the low-level `Server`). */
export interface McpServerLike {
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}

/** How a lost connection is re-established. */
export interface McpReconnectOptions {
  /**
   * Attempts after a connection is lost (or the first one fails) before the server is `failed`.
   * A tool call of a failed server still tries once more.
   * @default 5
   */
  maxAttempts?: number;
  /**
   * Wait before the first attempt, in milliseconds; each further wait doubles.
   * @default 500
   */
  initialDelayMs?: number;
  /**
   * Longest wait between attempts, in milliseconds.
   * @default 30000
   */
  maxDelayMs?: number;
}

/** Settings every server type takes. */
export interface McpServerConfigBase {
  /**
   * Defer all of this server's tools: their definitions reach the model only when tool search
   * finds them (see the agent's `toolSearch`). For servers with many tools.
   * @default false
   */
  deferLoading?: boolean;
  /**
   * How long a tool call may wait for the server's answer, in milliseconds (progress
   * notifications restart the clock, up to `maxTotalTimeoutMs`).
   * @default 600000 (10 minutes)
   */
  toolTimeoutMs?: number;
  /**
   * The longest a tool call may take in all, in milliseconds, however often the server's progress
   * notifications restart `toolTimeoutMs` (as the MCP SDK's `maxTotalTimeout` request option, but
   * kept on its own timer: the call ends when it is reached, not at the next notification). The
   * call is then cancelled (the server is sent `notifications/cancelled`) and the model gets an
   * error result (`McpToolCallError` with `timedOut: true`). A server that reports progress for
   * ever thus cannot keep a call, and the run, open for ever.
   * @default 3600000 (1 hour), or `toolTimeoutMs` when that is longer
   */
  maxTotalTimeoutMs?: number;
  /**
   * How long connecting (and listing the tools) may take before the server counts as `failed`.
   * @default 30000
   */
  connectTimeoutMs?: number;
  /**
   * Reconnection after a lost connection.
   * @default { maxAttempts: 5, initialDelayMs: 500, maxDelayMs: 30000 }
   */
  reconnect?: McpReconnectOptions;
}

/** A server reached over streamable HTTP. */
export interface McpHttpServerConfig extends McpServerConfigBase {
  type: 'http';
  /** The server's MCP endpoint, e.g. `https://mcp.example.com/mcp`. */
  url: string;
  /**
   * HTTP headers sent with every request (e.g. `Authorization`).
   * @default {}
   */
  headers?: Record<string, string>;
  /**
   * An OAuth client (`OAuthClientProvider` of `@modelcontextprotocol/sdk/client/auth.js`) for
   * servers that ask for authorization. Without it, such a server's status is `needs-auth`.
   * @default undefined
   */
  authProvider?: object;
}

/** A server object in this process (for tests, and hosts that already have one). */
export interface McpSdkServerConfig extends McpServerConfigBase {
  type: 'sdk';
  /**
   * The server, or a function that makes one. A server object serves one connection at a time,
   * so pass a function when several agents (or forks) use the same server definition.
   */
  server: McpServerLike | (() => McpServerLike | Promise<McpServerLike>);
}

/**
 * A server started as a child process and spoken to over stdio. Needs Node: create it with
 * `stdioMcpServer()` from `agent-harness/node`.
 */
export interface McpStdioServerConfig extends McpServerConfigBase {
  type: 'stdio';
  /** The executable, e.g. `node` or `npx`. */
  command: string;
  /**
   * Its arguments.
   * @default []
   */
  args?: string[];
  /**
   * Environment variables of the process (merged over a minimal safe environment by the SDK).
   * @default the SDK's default environment
   */
  env?: Record<string, string>;
  /**
   * Working directory of the process.
   * @default the host's working directory
   */
  cwd?: string;
  /** Makes the transport; set by `stdioMcpServer()`. */
  transport?: () => McpTransportLike | Promise<McpTransportLike>;
}

/** A server reached through a transport the host makes (SSE, WebSocket, a custom one). */
export interface McpTransportServerConfig extends McpServerConfigBase {
  type: 'transport';
  /** Makes a fresh transport for each connection (reconnection calls it again). */
  transport: () => McpTransportLike | Promise<McpTransportLike>;
}

/** One entry of `createAgent({ mcpServers })`. */
export type McpServerConfig = McpHttpServerConfig | McpSdkServerConfig | McpStdioServerConfig | McpTransportServerConfig;

export type { McpServerStatus, McpServerState } from '../types/mcp-server-state.js';
