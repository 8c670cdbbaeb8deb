import { McpConnectionError } from '../errors/mcp-connection-error.js';
import { ModelError } from '../errors/model-error.js';
import type { RunEndError } from '../state/run-end-error.js';

/**
 * The outage a stored `run-end` records, rebuilt as the error its worker failed the attempt with
 * (a retryable model error, an MCP server down), or undefined for a failure no retry gets past
 * and for an end stored without its error (by an earlier version). A store that failed to write
 * stores no run end, so it never shows here.
 */
export function storedOutage(error: RunEndError | undefined): Error | undefined {
  if (error === undefined) return undefined;
  if (error.code === ModelError.code && error.retryable === true) return new ModelError(error.message, { retryable: true });
  // The server's name is in the message the error was made with ("the MCP server \"db\"").
  if (error.code === McpConnectionError.code) return new McpConnectionError(error.message, { server: /MCP server "([^"]+)"/.exec(error.message)?.[1] ?? '' });
  return undefined;
}
