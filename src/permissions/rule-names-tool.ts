/** The prefix MCP tool names share: `mcp__<server>__<tool>`. */
const MCP_PREFIX = 'mcp__';

/**
 * Whether a rule's tool part covers a tool: the same name; `mcp__<server>` (every tool of that
 * MCP server); or a name ending in `__*` (every tool whose name starts with what comes before the
 * `*`, e.g. `mcp__github__*`).
 * @example
 * ruleNamesTool('mcp__github', 'mcp__github__create_issue'); // true
 * ruleNamesTool('mcp__git', 'mcp__github__create_issue'); // false
 */
export function ruleNamesTool(ruleToolName: string, toolName: string): boolean {
  if (ruleToolName === toolName) return true;
  if (ruleToolName.endsWith('__*')) return toolName.startsWith(ruleToolName.slice(0, -1));
  return isMcpServerRule(ruleToolName) && toolName.startsWith(`${ruleToolName}__`);
}

/** True for a rule name `mcp__<server>` that names a whole MCP server. */
export function isMcpServerRule(ruleToolName: string): boolean {
  return ruleToolName.startsWith(MCP_PREFIX) && ruleToolName.length > MCP_PREFIX.length && !ruleToolName.slice(MCP_PREFIX.length).includes('__');
}

/** The MCP server a rule name is about (`mcp__<server>`, `mcp__<server>__*` or `mcp__<server>__<tool>`). */
export function mcpServerOfRule(ruleToolName: string): string | undefined {
  if (!ruleToolName.startsWith(MCP_PREFIX)) return undefined;
  const rest = ruleToolName.slice(MCP_PREFIX.length);
  const end = rest.indexOf('__');
  const server = end === -1 ? rest : rest.slice(0, end);
  return server === '' ? undefined : server;
}
