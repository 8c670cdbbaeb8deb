/** The state of one MCP server of an agent (a leaf of shared vocabulary: events and the MCP adapter use it). */

/**
 * Where an MCP server stands:
 * `pending` (connecting for the first time), `connected`, `reconnecting` (after a lost
 * connection, with backoff), `failed` (could not connect; its tools answer with an error and a
 * call tries to connect again), `needs-auth` (the server wants authorization), `closed`
 * (`agent.close()`, or the `close()` of a shared server: `sharedMcpServer()`).
 */
export type McpServerStatus = 'pending' | 'connected' | 'reconnecting' | 'failed' | 'needs-auth' | 'closed';

/** One MCP server of an agent, as `agent.mcpServers` lists it. */
export interface McpServerState {
  /** The name in `mcpServers`; its tools are named `mcp__<name>__<tool>`. */
  name: string;
  /** How the server is reached: the configuration's `type`. */
  transport: 'http' | 'sdk' | 'stdio' | 'transport';
  status: McpServerStatus;
  /** Why the server is `failed`, `needs-auth` or `reconnecting`. */
  error?: string;
  /** The tools the agent offers from this server, by the name the model calls. */
  tools: string[];
  /** Tools the server listed that the agent could not offer, with the reason. */
  skippedTools: Array<{ name: string; reason: string }>;
  /** The server's own name and version, from the MCP handshake. */
  serverInfo?: { name: string; version: string };
  /**
   * `true` when the server is a shared one (`sharedMcpServer()`): its connection is not the
   * agent's own, so `agent.close()` leaves it open for other agents (the agent then reports it
   * `closed`) and its `status` is the connection's, which every agent using it shares.
   */
  shared?: true;
}
