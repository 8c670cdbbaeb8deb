import { AgentHarnessError, hasCode, type AgentHarnessErrorOptions } from './agent-harness-error.js';

/** Options of {@link McpConnectionError}. */
export interface McpConnectionErrorOptions extends AgentHarnessErrorOptions {
  /** The server's name in `mcpServers`. */
  server: string;
  /** The server asked for authorization the agent could not give (HTTP 401). */
  needsAuth?: boolean;
}

/** The `code` of a {@link McpConnectionError}. */
const CODE = 'mcp-connection';

/**
 * An MCP server could not be reached: the connection failed or timed out, the server asked for
 * authorization, or it went away (a crashed process, a closed connection), also in the middle of
 * a tool call.
 */
export class McpConnectionError extends AgentHarnessError {
  static readonly code = CODE;
  /** The server's name in `mcpServers`. */
  readonly server: string;
  /** True when the server wants authorization (status `needs-auth`). */
  readonly needsAuth: boolean;
  constructor(message: string, options: McpConnectionErrorOptions) {
    super(CODE, message, options);
    this.server = options.server;
    this.needsAuth = options.needsAuth ?? false;
  }
  static override isInstance = hasCode<McpConnectionError>(CODE);
}
