import { mcpToolOrigin } from '../mcp/mcp-tool.js';
import type { Tool } from '../tools/types.js';

/**
 * Why a call may not run on `tool` when it was decided (or asked about) while its name meant
 * `recorded`, another MCP tool (the server's tools changed since, in this process or before a
 * restart: names that collide once normalised were given out differently), as a sentence for the
 * model; undefined when the name still means that tool. A record that is not a server and tool
 * pair (a snapshot altered by hand) never matches.
 */
export function mcpOriginRefusal(toolName: string, tool: Tool, recorded: unknown): string | undefined {
  const asked = recorded as { server?: unknown; tool?: unknown } | null;
  const now = mcpToolOrigin(tool);
  if (now !== undefined && asked !== null && typeof asked === 'object' && now.server === asked.server && now.tool === asked.tool) return undefined;
  const was = asked !== null && typeof asked === 'object' && typeof asked.tool === 'string' && typeof asked.server === 'string' ? `the tool ${JSON.stringify(asked.tool)} of the MCP server "${asked.server}"` : 'another tool';
  const is = now === undefined ? 'a tool that is not that MCP tool' : `its tool ${JSON.stringify(now.tool)}`;
  return `The call was not run: when it was asked, ${toolName} was ${was}; it now names ${is} (the server's tools changed since). Make the call again if it is still needed.`;
}
