import type { McpServerConfig } from './mcp-server-config.js';
import type { McpToolInfo } from './mcp-tool-info.js';

/** FNV-1a (32 bits) over UTF-16 units, from a given offset basis (FNV's own by default), as 8 hex digits. */
export function fnv1a(text: string, basis = 0x811c9dc5): string {
  let hash = basis;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * A 64-bit fingerprint of a text (two FNV-1a hashes from different bases), as 16 hex digits:
 * enough to tell a changed server or tool from the one recorded, and reveals nothing of a URL's
 * or a command line's secrets. Not a defence against someone crafting collisions: whoever can do
 * that already controls the configuration or the server.
 */
export function mcpFingerprint(text: string): string {
  return fnv1a(text, 0x811c9dc5) + fnv1a(text, 0x050c5d1f);
}

/** What a server's configuration points its name at, as a fingerprint (see `McpToolRecord.endpoint`). */
export function mcpEndpoint(config: McpServerConfig): string {
  if (config.type === 'http') return mcpFingerprint(JSON.stringify(['http', config.url]));
  if (config.type === 'stdio') return mcpFingerprint(JSON.stringify(['stdio', config.command, config.args ?? [], config.cwd ?? null]));
  return mcpFingerprint(JSON.stringify([config.type]));
}

/** A listed tool's definition as a fingerprint (see `McpToolRecord.definition`). */
export function mcpToolDefinition(info: McpToolInfo): string {
  return mcpFingerprint(JSON.stringify([info.name, info.title ?? null, info.description ?? null, info.inputSchema, info.annotations ?? null]));
}
