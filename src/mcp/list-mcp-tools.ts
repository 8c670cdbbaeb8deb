import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { toMcpToolInfo, type McpToolInfo } from './mcp-tool-info.js';

/** A server that pages past this many times is stopped: its list is taken as far as it got. */
const MAX_PAGES = 100;

/** Lists every tool of a server, following `nextCursor` pages. */
export async function listMcpTools(client: Client, options: { signal?: AbortSignal; timeoutMs: number }): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor }, {
      timeout: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    tools.push(...result.tools.map((tool) => toMcpToolInfo(tool as Record<string, unknown>)));
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}
