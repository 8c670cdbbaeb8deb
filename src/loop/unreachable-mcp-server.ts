import { McpConnectionError } from '../errors/mcp-connection-error.js';
import { mcpServerOfToolName } from '../mcp/index.js';
import type { AgentCore } from '../runtime/agent-core.js';
import type { McpServerState } from '../types/mcp-server-state.js';

/**
 * Why an allowed approval cannot be applied yet: its tool is an MCP server's that this agent does
 * not have now because the server is not connected (failed, reconnecting, needs authorization) —
 * a process resuming the session while the server is down. Applying it would answer the call as
 * a tool that no longer exists and use the host's approval up; the approval stays pending instead,
 * to be answered again once the server is back. Undefined when the tool is here, or is no MCP
 * server's, or its server is connected (a tool the server no longer lists is gone for good).
 */
export function unreachableMcpServer(core: AgentCore, approvalId: string): McpConnectionError | undefined {
  const approval = core.pendingApprovals().find((candidate) => candidate.id === approvalId);
  if (approval === undefined) return undefined;
  const server = disconnectedMcpServer(core, approval.toolName);
  if (server === undefined) return undefined;
  const why = server.error ? ` (${server.error.replace(/\.+$/, '')})` : '';
  return new McpConnectionError(
    `The approval "${approvalId}" is for ${approval.toolName}, a tool of the MCP server "${server.name}", which is ${server.status}${why}, so nothing was run and the approval is still pending: answer it again once the server is connected (see agent.mcpServers or the mcp-server-status event), or deny it.`,
    { server: server.name, needsAuth: server.status === 'needs-auth' },
  );
}

/**
 * The state of the MCP server whose tool `toolName` is, when this agent does not have the tool
 * because the server is not connected (failed, reconnecting, needs authorization); undefined when
 * the tool is here, is no MCP server's, or its server is connected (a tool it no longer lists).
 */
export function disconnectedMcpServer(core: AgentCore, toolName: string): McpServerState | undefined {
  if (core.tools.has(toolName)) return undefined;
  const name = mcpServerOfToolName(toolName);
  const server = name === undefined ? undefined : core.toolSources?.mcpStates().find((state) => state.name === name);
  return server === undefined || server.status === 'connected' ? undefined : server;
}
