import { ConfigurationError } from '../errors/configuration-error.js';
import { jsonBoundsProblem, type JsonBounds } from '../history/json-bounds.js';
import { headOfText } from '../model/code-point-boundary.js';
import { defineTool } from '../tools/define-tool.js';
import type { JsonSchemaObject } from '../tools/input-schema.js';
import type { Tool, ToolAnnotations } from '../tools/types.js';
import { jsonSchemaProblem } from '../tools/json-schema-problem.js';
import { markToolJsonSchemaChecked } from '../tools/assert-tool-json-schema.js';
import { rootCombinator } from '../tools/root-combinator.js';
import { mcpResultToOutput } from './mcp-result-to-output.js';
import type { McpToolInfo } from './mcp-tool-info.js';
import { mcpToolDefinition } from './mcp-fingerprint.js';
import type { McpToolRecord } from '../types/mcp-tool-record.js';

/** Descriptions longer than this are cut: a server's prose should not crowd out the conversation. */
const MAX_DESCRIPTION = 2048;

/**
 * The largest input schema a server's tool may have. It is sent in every request's prefix (about
 * 16k tokens at the character bound), and compiled to validate each call; real tools stay far
 * below both bounds. A tool over them is skipped, not cut: a cut schema would validate wrongly.
 */
export const MCP_INPUT_SCHEMA_BOUNDS: JsonBounds = { maxDepth: 32, maxChars: 64_000, maxNodes: 20_000 };

/**
 * What of a listed tool follows the server's latest listing. Its annotations decide whether it is
 * read-only (plan mode, asking) and go with each permission question, so a server that drops
 * `readOnlyHint` is taken at its word at once. Its name, description and input schema stay as
 * first listed: the request prefix never changes mid-session.
 */
export interface McpToolHints {
  annotations: ToolAnnotations | undefined;
  /**
   * The fingerprint of the tool as last listed (`McpToolRecord.definition`): a call asked about
   * or allowed for an earlier definition does not run on a changed one.
   * @default the fingerprint of `info`
   */
  definition?: string;
}

/** Who the server behind a tool is now: what its configuration points at, and the name it gave itself. */
export interface McpServerIdentity {
  /** `McpToolRecord.endpoint`. */
  endpoint: string;
  /** `McpToolRecord.serverInfoName`: undefined before the server has answered `initialize`. */
  serverInfoName: string | undefined;
}

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
  /**
   * Where the tool reads its annotations: the owner updates it when the server lists the tool again.
   * @default the annotations of `info`, fixed
   */
  hints?: McpToolHints;
  /**
   * Who the server is now, read each time a call is recorded or checked.
   * @default unknown (records carry no `endpoint` nor `serverInfoName`)
   */
  identity?: () => McpServerIdentity;
}

/** How each tool {@link createMcpTool} made finds its origin. */
interface OriginSource {
  server: string;
  tool: string;
  hints: McpToolHints;
  identity: (() => McpServerIdentity) | undefined;
}

/** The origin of each tool {@link createMcpTool} made. */
const origins = new WeakMap<Tool, OriginSource>();

/**
 * The server, the server-side name and the fingerprints (of the server's endpoint and the tool's
 * definition as now listed) of an MCP tool, or undefined for any other tool. Two processes may
 * give one model-facing name to different tools of a server (tools that collide once normalised,
 * listed differently), a configuration may point a server's name at another server, and a server
 * may change a tool: this is what a call records when the model makes it, to run only the tool it
 * was made for (and asked about).
 */
export function mcpToolOrigin(tool: Tool): McpToolRecord | undefined {
  const source = origins.get(tool);
  if (source === undefined) return undefined;
  const record: McpToolRecord = { server: source.server, tool: source.tool };
  const identity = source.identity?.();
  if (identity !== undefined) {
    record.endpoint = identity.endpoint;
    if (identity.serverInfoName !== undefined) record.serverInfoName = identity.serverInfoName;
  }
  if (source.hints.definition !== undefined) record.definition = source.hints.definition;
  return record;
}

/** The tools made with live `hints`: their read-only flag follows the server's latest listing. */
const followingServer = new WeakSet<Tool>();

/**
 * Whether `tool` is an MCP tool whose read-only flag follows its server's latest listing
 * (`readOnlyHint`), so it may change while the agent runs; false for every other tool, whose flag
 * is fixed when it is defined. A copy of the tool (`{ ...tool }`) is not one: its flag is fixed.
 */
export function followsServerAnnotations(tool: Tool): boolean {
  return followingServer.has(tool);
}

function describe(server: string, info: McpToolInfo): string {
  const text = info.description?.trim() || info.title?.trim() || `The tool "${info.name}" of the MCP server "${server}".`;
  return text.length > MAX_DESCRIPTION ? `${headOfText(text, MAX_DESCRIPTION - 1)}…` : text;
}

/**
 * An MCP tool as an agent tool: the server's JSON Schema as input schema; `readOnlyHint` makes it
 * read-only (it runs in plan mode and without asking), anything else asks; the annotations go
 * with each permission question; the result becomes content blocks, `isError` an error result.
 * Whether it is read-only, its kind and its annotations are read from `hints` each time.
 * @throws ConfigurationError when the server's input schema is not an object schema, is larger
 *   or more deeply nested than {@link MCP_INPUT_SCHEMA_BOUNDS} allow, breaks JSON Schema 2020-12, or
 *   has `oneOf`, `anyOf` or `allOf` at its top level (which the Messages API refuses).
 */
export function createMcpTool(options: CreateMcpToolOptions): Tool<Record<string, unknown>> {
  const { info, server } = options;
  // Checked before compiling it: a schema thousands of levels deep would exhaust the stack there.
  const problem = jsonBoundsProblem(info.inputSchema, MCP_INPUT_SCHEMA_BOUNDS);
  if (problem !== undefined) {
    const { maxDepth, maxChars, maxNodes } = MCP_INPUT_SCHEMA_BOUNDS;
    throw new ConfigurationError(
      `The MCP server "${server}" lists the tool "${info.name}" with an input schema ${problem}, so the tool is not offered. An input schema may be at most ${maxDepth} levels deep, ${maxChars} characters and ${maxNodes} values; the server has to list a smaller one.`,
    );
  }
  const invalid = jsonSchemaProblem(info.inputSchema);
  if (invalid !== undefined) {
    throw new ConfigurationError(
      `The MCP server "${server}" lists the tool "${info.name}" with an input schema that is not valid JSON Schema 2020-12 (${invalid}), so the tool is not offered: the Messages API would refuse every request that carries it. The server has to fix the schema.`,
    );
  }
  const combinator = rootCombinator(info.inputSchema);
  if (combinator !== undefined) {
    throw new ConfigurationError(
      `The MCP server "${server}" lists the tool "${info.name}" with an input schema that has ${combinator} at the top level, which the Messages API refuses in a tool's input schema (every request that carries it), so the tool is not offered. The server has to describe the fields in one object schema.`,
    );
  }
  // Within the bounds of a tool input (MCP's are stricter), valid, no top-level combinator: what
  // defineTool would check again, walking the schema twice more. Not an object schema: defineTool says so.
  if (info.inputSchema.type === 'object') markToolJsonSchemaChecked(info.inputSchema);
  const hints = options.hints ?? { annotations: info.annotations };
  hints.definition ??= mcpToolDefinition(info);
  // A tool that says it only reads and also that it may destroy (`destructiveHint: true`, which
  // the protocol reads only for a tool that writes) contradicts itself: it is taken as writing.
  const readOnly = (): boolean => hints.annotations?.readOnlyHint === true && hints.annotations.destructiveHint !== true;
  const tool = defineTool({
    name: options.name,
    description: describe(server, info),
    inputSchema: info.inputSchema as JsonSchemaObject,
    readOnly: readOnly(),
    // The permission steps ask this per call; unlike the getters below, it survives a copy of the tool.
    isReadOnlyCall: () => readOnly(),
    deferLoading: options.deferLoading,
    execute: async ({ input, signal }) => mcpResultToOutput(await options.call(info.name, input, signal)),
  });
  const live = Object.defineProperties(tool, {
    readOnly: { get: readOnly, enumerable: true },
    concurrencySafe: { get: readOnly, enumerable: true },
    kind: { get: () => (readOnly() ? 'read' : 'other'), enumerable: true },
    annotations: { get: () => hints.annotations, enumerable: true },
  });
  if (options.hints) followingServer.add(live);
  origins.set(live, { server, tool: info.name, hints, identity: options.identity });
  return live;
}
