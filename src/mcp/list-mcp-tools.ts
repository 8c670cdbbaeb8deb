import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod/v4';
import { builtOnFirstUse } from '../tools/built-on-first-use.js';
import { loadMcpSdk } from './load-mcp-sdk.js';
import { toMcpToolInfo, type McpToolInfo } from './mcp-tool-info.js';

/** A server that pages past this many times is stopped: its list is taken as far as it got. */
const MAX_PAGES = 100;

/**
 * A page of `tools/list`, each tool checked on its own below: one tool of a shape the protocol
 * does not allow must not cost the server its other tools (the SDK's `listTools` refuses the page).
 */
// Built on first use: at module scope it cost every cold import of agent-harness, MCP or not.
const lenientPage = builtOnFirstUse(() => z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() }));

/** The first problems zod found, as a short phrase. */
function issuesOf(error: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> }): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(tool)'}: ${issue.message}`)
    .join('; ');
}

/** The tool's name for a message: its own when it has one. */
function nameOf(raw: unknown, index: number): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name !== '' ? name : `(unnamed tool ${index + 1})`;
}

/**
 * Lists every tool of a server, following `nextCursor` pages. A listed tool the protocol does not
 * allow (no name, an input or output schema that is not an object schema) comes back with a
 * `problem`, to be skipped with that reason; annotations of the wrong type are dropped.
 */
export async function listMcpTools(client: Client, options: { signal?: AbortSignal; timeoutMs: number }): Promise<McpToolInfo[]> {
  const { ToolSchema } = await loadMcpSdk();
  // What the agent reads of a tool; the rest (annotations, icons, _meta) is read leniently.
  const toolShape = ToolSchema.pick({ name: true, inputSchema: true, outputSchema: true });
  const tools: McpToolInfo[] = [];
  const valid: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await pageRequest(options.signal, (signal) =>
      client.request({ method: 'tools/list', ...(cursor === undefined ? {} : { params: { cursor } }) }, lenientPage(), {
        timeout: options.timeoutMs,
        ...(signal ? { signal } : {}),
      }),
    );
    for (const raw of result.tools) {
      const checked = toolShape.safeParse(raw);
      if (checked.success) {
        valid.push(raw);
        tools.push(toMcpToolInfo(raw as Record<string, unknown>));
      } else {
        const index = tools.length;
        tools.push({ name: nameOf(raw, index), inputSchema: { type: 'object' }, problem: `in a shape the protocol does not allow (${issuesOf(checked.error)})` });
      }
    }
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  cacheOutputSchemas(client, valid, tools);
  return tools;
}

/**
 * Sends one page's request under a signal of its own, aborted with `outer`: the MCP SDK adds an
 * abort listener to the signal of each request and never removes it, so up to 100 pages on the
 * connection's one signal left 100 listeners on it (and Node warned of a leak).
 */
async function pageRequest<T>(outer: AbortSignal | undefined, send: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (outer === undefined) return send(undefined);
  const page = new AbortController();
  if (outer.aborted) page.abort(outer.reason);
  const stop = () => page.abort(outer.reason);
  outer.addEventListener('abort', stop, { once: true });
  try {
    return await send(page.signal);
  } finally {
    outer.removeEventListener('abort', stop);
  }
}

/**
 * Hands the SDK the listed tools, as its own `listTools` does, so that it checks a result's
 * `structuredContent` against the tool's output schema. A tool whose output schema cannot be
 * compiled is skipped (with a problem) rather than failing the whole list.
 */
function cacheOutputSchemas(client: Client, valid: unknown[], tools: McpToolInfo[]): void {
  const cache = (client as unknown as { cacheToolMetadata?: (tools: unknown[]) => void }).cacheToolMetadata;
  if (typeof cache !== 'function') return;
  const kept = valid.filter((raw) => {
    try {
      cache.call(client, [raw]);
      return true;
    } catch (error) {
      const name = (raw as { name: string }).name;
      const info = tools.find((tool) => tool.name === name && tool.problem === undefined);
      if (info) info.problem = `with an output schema that cannot be compiled (${error instanceof Error ? error.message : String(error)})`;
      return false;
    }
  });
  cache.call(client, kept);
}
