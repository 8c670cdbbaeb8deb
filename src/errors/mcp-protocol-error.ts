import { AgentHarnessError, hasCode, type AgentHarnessErrorOptions } from './agent-harness-error.js';

/** Options of {@link McpProtocolError}. */
export interface McpProtocolErrorOptions extends AgentHarnessErrorOptions {
  /** The server's name in `mcpServers`. */
  server: string;
  /** The tool concerned, when there is one. */
  toolName?: string;
}

/** The `code` of a {@link McpProtocolError}. */
const CODE = 'mcp-protocol';

/**
 * An MCP server sent something the protocol does not allow: a tool result of the wrong shape, a
 * tool whose input schema is not an object schema. The run goes on; the model sees an error result.
 */
export class McpProtocolError extends AgentHarnessError {
  static readonly code = CODE;
  /** The server's name in `mcpServers`. */
  readonly server: string;
  /** The tool concerned, when there is one. */
  readonly toolName: string | undefined;
  constructor(message: string, options: McpProtocolErrorOptions) {
    super(CODE, message, options);
    this.server = options.server;
    this.toolName = options.toolName;
  }
  static override isInstance = hasCode<McpProtocolError>(CODE);
}
