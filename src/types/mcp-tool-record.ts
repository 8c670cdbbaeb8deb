/**
 * Which tool of which MCP server a call named, as recorded with the call (when the model made
 * it, when it was asked about, when it was allowed): it runs only where its name still means that
 * tool, on that server, as listed then. Fields after `tool` are fingerprints (hashes: no URL,
 * argument or header is stored), absent in records made by earlier versions, which are compared
 * on `server` and `tool` alone.
 */
export interface McpToolRecord {
  /** The server's name in `mcpServers`. */
  server: string;
  /** The tool's name on the server (before it was made a model-facing name). */
  tool: string;
  /**
   * What the configuration pointed the server's name at: a hash of the transport type and its URL
   * (`http`), or its command, arguments and working directory (`stdio`); the type alone for
   * in-process (`sdk`) and host-made (`transport`) servers.
   */
  endpoint?: string;
  /** The name the server gave itself when it connected (`serverInfo.name` of its `initialize` answer). */
  serverInfoName?: string;
  /** A hash of the tool as the server listed it: title, description, input schema and annotations. */
  definition?: string;
}
