export type {
  McpServerConfig,
  McpServerConfigBase,
  McpHttpServerConfig,
  McpSdkServerConfig,
  McpStdioServerConfig,
  McpTransportServerConfig,
  McpTransportLike,
  McpServerLike,
  McpReconnectOptions,
  McpServerStatus,
  McpServerState,
} from './mcp-server-config.js';
export { assertMcpServerConfig } from './assert-mcp-server-config.js';
export { sharedMcpServer, assertMcpServerEntry, isSharedMcpServer, SharedMcpConnection, type SharedMcpServer, type SharedMcpServerOptions } from './shared-mcp-server.js';
export { McpServerPool, type McpServerPoolListener } from './mcp-server-pool.js';
export { mcpToolName, mcpServerOfToolName, assertMcpServerName, MCP_TOOL_PREFIX } from './mcp-tool-name.js';
export { mcpResultToOutput } from './mcp-result-to-output.js';
export { followsServerAnnotations } from './mcp-tool.js';
