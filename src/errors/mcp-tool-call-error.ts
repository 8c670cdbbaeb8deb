import { AgentHarnessError, hasCode, type AgentHarnessErrorOptions } from './agent-harness-error.js';

/** Options of {@link McpToolCallError}. */
export interface McpToolCallErrorOptions extends AgentHarnessErrorOptions {
  /** The server's name in `mcpServers`. */
  server: string;
  /** The tool's name on the server. */
  toolName: string;
  /** The JSON-RPC error code the server answered with, when it did. */
  rpcCode?: number;
  /** True when the server did not answer within the tool timeout. */
  timedOut?: boolean;
}

/** The `code` of a {@link McpToolCallError}. */
const CODE = 'mcp-tool-call';

/**
 * An MCP server answered a tool call with a protocol error (unknown tool, invalid arguments, an
 * internal error), or did not answer in time. The model sees it as an error result.
 */
export class McpToolCallError extends AgentHarnessError {
  static readonly code = CODE;
  /** The server's name in `mcpServers`. */
  readonly server: string;
  /** The tool's name on the server. */
  readonly toolName: string;
  /** The JSON-RPC error code, when the server answered with one. */
  readonly rpcCode: number | undefined;
  /** True when the call timed out. */
  readonly timedOut: boolean;
  constructor(message: string, options: McpToolCallErrorOptions) {
    super(CODE, message, options);
    this.server = options.server;
    this.toolName = options.toolName;
    this.rpcCode = options.rpcCode;
    this.timedOut = options.timedOut ?? false;
  }
  static override isInstance = hasCode<McpToolCallError>(CODE);
}
