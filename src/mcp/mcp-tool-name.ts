import { ConfigurationError } from '../errors/configuration-error.js';
import { fnv1a } from './mcp-fingerprint.js';
import { argumentError } from '../errors/argument-error.js';

/** The prefix of every MCP tool name. */
export const MCP_TOOL_PREFIX = 'mcp__';

/** The longest tool name the Messages API accepts. */
const MAX_TOOL_NAME = 64;
/** Server names: letters, digits, `-` and single `_`, so `mcp__<server>__<tool>` parses back. */
const SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
const MAX_SERVER_NAME = 32;

/**
 * Checks a key of `mcpServers` (or the name of a shared server).
 * @param where - names the value in the message.
 * @throws ConfigurationError naming the bad name and the rule.
 */
export function assertMcpServerName(name: string, where = 'createAgent: mcpServers key'): void {
  if (!SERVER_NAME.test(name) || name.length > MAX_SERVER_NAME) {
    throw new ConfigurationError(
      `${where} ${JSON.stringify(name)} is not a valid server name: use 1-${MAX_SERVER_NAME} letters, digits, "-" and single "_" (its tools are named mcp__<server>__<tool>), e.g. "github" or "notes-db".`,
    );
  }
}

/** A short stable hash (FNV-1a, 6 hex digits) that keeps shortened names apart. */
function shortHash(text: string): string {
  return fnv1a(text).slice(0, 6);
}

/**
 * The name the model calls an MCP tool by: `mcp__<server>__<tool>`. Characters the Messages API
 * refuses (MCP allows `.` and `/`, for instance) become `_`; a name past 64 characters is cut and
 * ends with a hash of the tool's full name. A name already `taken` by another tool of the server
 * (two tools that differ only in such characters) gets the hash too; when the hashed name is
 * taken as well (a server may list a tool named exactly like another one's cut name, or two whose
 * hashes collide), the hash is drawn again until the name is free, so no two tools share a name.
 * @param server - a valid server name (see {@link assertMcpServerName}).
 * @param tool - the tool's name on the server.
 * @param taken - names already given to other tools.
 */
export function mcpToolName(server: string, tool: string, taken?: ReadonlySet<string>): string {
  if (typeof server !== 'string') throw argumentError('mcpToolName', 'server', 'a server name (a string)', server);
  if (typeof tool !== 'string') throw argumentError('mcpToolName', 'tool', "a tool name (a string, the server's name for it)", tool);
  if (taken !== undefined && !(taken instanceof Set)) throw argumentError('mcpToolName', 'taken', 'a Set of names already taken, or nothing', taken);
  const full = `${MCP_TOOL_PREFIX}${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_') || '_'}`;
  if (full.length <= MAX_TOOL_NAME && !taken?.has(full)) return full;
  // Ends: `taken` is finite, and each attempt hashes a different text.
  for (let attempt = 0; ; attempt++) {
    const suffix = `_${shortHash(attempt === 0 ? tool : `${tool}\u0000${attempt}`)}`;
    const name = full.slice(0, MAX_TOOL_NAME - suffix.length) + suffix;
    if (!taken?.has(name)) return name;
  }
}

/** The server a tool name belongs to, when it is an MCP tool name. */
export function mcpServerOfToolName(name: string): string | undefined {
  if (!name.startsWith(MCP_TOOL_PREFIX)) return undefined;
  const end = name.indexOf('__', MCP_TOOL_PREFIX.length);
  return end === -1 ? name.slice(MCP_TOOL_PREFIX.length) : name.slice(MCP_TOOL_PREFIX.length, end);
}
