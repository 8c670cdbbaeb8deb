/**
 * Hints about a tool's behaviour, as MCP servers describe their tools. They are hints from the
 * tool's author, not guarantees: `readOnlyHint` decides plan-mode eligibility of MCP tools, the
 * others are shown to the host in permission requests.
 */
export interface ToolAnnotations {
  /** A human-readable title. */
  title?: string;
  /** The tool does not change its environment. */
  readOnlyHint?: boolean;
  /**
   * The tool may destroy or overwrite data (meaningful only when not read-only; MCP reads an
   * absent value as true for such tools).
   */
  destructiveHint?: boolean;
  /** Calling it again with the same input has no further effect. */
  idempotentHint?: boolean;
  /** The tool reaches an open world of outside entities (the web, say), not a closed domain. */
  openWorldHint?: boolean;
}
