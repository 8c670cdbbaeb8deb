import { McpConnectionError } from '../errors/mcp-connection-error.js';
import { McpProtocolError } from '../errors/mcp-protocol-error.js';
import { McpToolCallError } from '../errors/mcp-tool-call-error.js';
import { describeThrown } from '../errors/describe-thrown.js';

/** JSON-RPC codes the SDK uses for a closed connection and a request timeout. */
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

/** How a failed call is reported, and whether the connection should be dropped and re-established. */
export interface ClassifiedCallError {
  error: Error;
  /** The transport failed under the call: reconnect before the next one. */
  connectionLost: boolean;
}

function issuesOf(error: unknown): string | undefined {
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (!Array.isArray(issues)) return undefined;
  return issues
    .slice(0, 3)
    .map((issue: { path?: unknown[]; message?: string }) => `${(issue.path ?? []).join('.') || '(result)'}: ${issue.message ?? 'invalid'}`)
    .join('; ');
}

/**
 * Turns what the SDK threw for a `tools/call` into an error naming the server, the tool, what
 * happened and what the model (or host) can do: a lost connection, a timeout, the server's own
 * error answer, or a result of the wrong shape.
 */
export function classifyCallError(error: unknown, server: string, toolName: string, timeoutMs: number, closeReason?: string): ClassifiedCallError {
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  const detail = describeThrown(error);
  if (name === 'McpError' && code === CONNECTION_CLOSED && closeReason) {
    return {
      connectionLost: true,
      error: new McpConnectionError(
        `The connection to the MCP server "${server}" was closed during the call to "${toolName}": ${closeReason} The call may or may not have taken effect. The agent reconnects by itself; check what happened before calling it again.`,
        { server, cause: error },
      ),
    };
  }
  if (name === 'McpError' && code === CONNECTION_CLOSED) {
    return {
      connectionLost: true,
      error: new McpConnectionError(
        `The MCP server "${server}" closed the connection during the call to "${toolName}" (its process may have crashed), so the call may or may not have taken effect. The agent reconnects by itself; check what happened before calling it again.`,
        { server, cause: error },
      ),
    };
  }
  if (name === 'McpError' && code === REQUEST_TIMEOUT) {
    return {
      connectionLost: false,
      error: new McpToolCallError(`The MCP server "${server}" did not answer the call to "${toolName}" within ${timeoutMs} ms, so the call was given up (it may still take effect). Try a smaller request, or raise the server's toolTimeoutMs.`, {
        server,
        toolName,
        timedOut: true,
        cause: error,
      }),
    };
  }
  if (name === 'McpError' && typeof code === 'number') {
    return {
      connectionLost: false,
      error: new McpToolCallError(`The MCP server "${server}" answered the call to "${toolName}" with an error: ${detail.replace(/^MCP error -?\d+: /, '')}`, {
        server,
        toolName,
        rpcCode: code,
        cause: error,
      }),
    };
  }
  const issues = issuesOf(error);
  if (issues !== undefined) {
    return {
      connectionLost: false,
      error: new McpProtocolError(`The MCP server "${server}" answered the call to "${toolName}" with a malformed result (${issues}), so it was discarded. The call may have taken effect on the server.`, {
        server,
        toolName,
        cause: error,
      }),
    };
  }
  return {
    connectionLost: true,
    error: new McpConnectionError(
      `The connection to the MCP server "${server}" failed during the call to "${toolName}" (${detail}), so the call may or may not have taken effect. The agent reconnects by itself; check what happened before calling it again.`,
      { server, cause: error },
    ),
  };
}

/**
 * The error of a call cancelled at the server's `maxTotalTimeoutMs`: the server kept it open that
 * long in all (its progress notifications restart `toolTimeoutMs`, not this limit).
 */
export function totalTimeoutError(server: string, toolName: string, maxTotalTimeoutMs: number, cause: unknown): McpToolCallError {
  return new McpToolCallError(
    `The MCP server "${server}" kept the call to "${toolName}" open for ${maxTotalTimeoutMs} ms in all (progress notifications do not extend that), so the call was cancelled (it may still take effect). Try a smaller request, or raise the server's maxTotalTimeoutMs.`,
    { server, toolName, timedOut: true, cause },
  );
}
