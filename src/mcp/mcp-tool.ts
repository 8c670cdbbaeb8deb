import { headOfText } from '../model/code-point-boundary.js';
import { defineTool } from '../tools/define-tool.js';
import type { JsonSchemaObject } from '../tools/input-schema.js';
import type { Tool } from '../tools/types.js';
import { mcpResultToOutput } from './mcp-result-to-output.js';
import type { McpToolInfo } from './mcp-tool-info.js';

/** Descriptions longer than this are cut: a server's prose should not crowd out the conversation. */
const MAX_DESCRIPTION = 2048;

/** Calls a tool on its server; resolves with the protocol's `CallToolResult`. */
export type McpCall = (toolName: string, input: Record<string, unknown>, signal: AbortSignal) => Promise<{ content?: unknown; structuredContent?: unknown; isError?: unknown }>;

/** Options of {@link createMcpTool}. */
export interface CreateMcpToolOptions {
  /** The server's name in `mcpServers`. */
  server: string;
  /** The name the model calls it by (`mcp__<server>__<tool>`). */
  name: string;
  /** The tool as the server listed it. */
  info: McpToolInfo;
  /** Send it deferred (found through tool search). */
  deferLoading: boolean;
  /** Reaches the server. */
  call: McpCall;
}

function describe(server: string, info: McpToolInfo): string {
  const text = info.description?.trim() || info.title?.trim() || `The tool "${info.name}" of the MCP server "${server}".`;
  return text.length > MAX_DESCRIPTION ? `${headOfText(text, MAX_DESCRIPTION - 1)}…` : text;
}

/**
 * An MCP tool as an agent tool: the server's JSON Schema as input schema; `readOnlyHint` makes it
 * read-only (it runs in plan mode and without asking), anything else asks; the annotations go
 * with each permission question; the result becomes content blocks, `isError` an error result.
 * @throws ConfigurationError when the server's input schema is not an object schema.
 */
export function createMcpTool(options: CreateMcpToolOptions): Tool<Record<string, unknown>> {
  const { info, server } = options;
  const readOnly = info.annotations?.readOnlyHint === true;
  return defineTool({
    name: options.name,
    description: describe(server, info),
    inputSchema: info.inputSchema as JsonSchemaObject,
    readOnly,
    kind: readOnly ? 'read' : 'other',
    deferLoading: options.deferLoading,
    ...(info.annotations ? { annotations: info.annotations } : {}),
    execute: async ({ input, signal }) => mcpResultToOutput(await options.call(info.name, input, signal)),
  });
}
