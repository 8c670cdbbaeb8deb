import { mcpToolOrigin } from '../mcp/mcp-tool.js';
import type { Tool } from '../tools/types.js';

/** Reads a recorded field that should be a string (a snapshot may have been altered by hand). */
function text(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Why a call may not run on `tool` when it was made, asked about or decided while its name meant
 * `recorded`, and the name now means something else, as a sentence for the model: another tool of
 * the server (names that collide once normalised were given out differently since, in this
 * process or before a restart), another server (the configuration points the server's name
 * elsewhere, or the server behind it calls itself differently), or the same tool changed (its
 * title, description, input schema or annotations: the question was asked about the old one).
 * Undefined when the name still means that tool. A record that is not a server and tool pair (a
 * snapshot altered by hand) never matches; a fingerprint the record lacks (made by an earlier
 * version) is not compared.
 */
export function mcpOriginRefusal(toolName: string, tool: Tool, recorded: unknown): string | undefined {
  const asked = recorded !== null && typeof recorded === 'object' ? (recorded as Record<string, unknown>) : undefined;
  const now = mcpToolOrigin(tool);
  const again = 'Make the call again if it is still needed.';
  if (now === undefined || asked === undefined || now.server !== asked.server || now.tool !== asked.tool) {
    const server = asked && text(asked, 'server');
    const was = asked && text(asked, 'tool') !== undefined && server !== undefined ? `the tool ${JSON.stringify(asked.tool)} of the MCP server "${server}"` : 'another tool';
    const is = now === undefined ? 'a tool that is not that MCP tool' : `its tool ${JSON.stringify(now.tool)}`;
    return `The call was not run: when it was asked, ${toolName} was ${was}; it now names ${is} (the server's tools changed since). ${again}`;
  }
  const endpoint = text(asked, 'endpoint');
  const serverInfoName = text(asked, 'serverInfoName');
  if ((endpoint !== undefined && endpoint !== now.endpoint) || (serverInfoName !== undefined && now.serverInfoName !== undefined && serverInfoName !== now.serverInfoName)) {
    const names = serverInfoName !== undefined && now.serverInfoName !== undefined && serverInfoName !== now.serverInfoName ? ` (it called itself "${serverInfoName}" then, "${now.serverInfoName}" now)` : '';
    return `The call was not run: the MCP server "${now.server}" is not the server it was when ${toolName} was called${names}; its configuration now points the name "${now.server}" at another server. ${again}`;
  }
  const definition = text(asked, 'definition');
  if (definition !== undefined && definition !== now.definition) {
    return `The call was not run: the MCP server "${now.server}" changed its tool ${JSON.stringify(now.tool)} (${toolName}) since the call was made (its description, input schema or annotations), so what was asked about is not what would run. Check the tool's current description, and make the call again if it is still needed.`;
  }
  return undefined;
}
