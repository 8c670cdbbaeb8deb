import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpConnectionError } from '../errors/mcp-connection-error.js';
import { raceAbort } from '../permissions/race-abort.js';
import { createMcpTransport, type CreatedTransport } from './create-mcp-transport.js';
import { listMcpTools } from './list-mcp-tools.js';
import { loadMcpHttpSdk, loadMcpSdk } from './load-mcp-sdk.js';
import type { McpServerConfig } from './mcp-server-config.js';
import type { McpToolInfo } from './mcp-tool-info.js';
import { describeThrown } from '../errors/describe-thrown.js';

/** How this library introduces itself to MCP servers. */
export const MCP_CLIENT_INFO = { name: 'agent-harness', version: '0.1.0' } as const;

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

/** The argument of {@link connectMcpClient}. */
export interface ConnectMcpClientArgs {
  name: string;
  config: McpServerConfig;
  /** Aborts the attempt (the agent closed). */
  signal: AbortSignal;
  /** The connection closed after it was made (not by `close()` of the result). */
  onClose: (client: Client) => void;
  /** The server announced a change of its tool list. */
  onToolsChanged: (client: Client) => void;
}

/** A connected client, its tools, and how to close it with whatever was made for it. */
export interface ConnectedClient {
  client: Client;
  tools: McpToolInfo[];
  serverInfo: { name: string; version: string } | undefined;
  close(): Promise<void>;
  /** Why the transport ended the connection itself, when it did (see `McpTransportLike.closeReason`). */
  closeReason(): string | undefined;
}

/** Whether an error means the server wants authorization (HTTP 401, or the SDK's `UnauthorizedError`). */
async function isAuthError(error: unknown, config: McpServerConfig): Promise<boolean> {
  if (config.type !== 'http') return false;
  const { StreamableHTTPError, UnauthorizedError } = await loadMcpHttpSdk();
  return error instanceof UnauthorizedError || (error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403));
}

/**
 * Opens one connection: makes the transport, runs the MCP handshake and lists the tools, all
 * within `connectTimeoutMs`. On failure everything made for the attempt is closed (a started
 * process ends) and a {@link McpConnectionError} is thrown.
 */
export async function connectMcpClient(args: ConnectMcpClientArgs): Promise<ConnectedClient> {
  const { name, config } = args;
  const { Client: ClientClass, AjvJsonSchemaValidator } = await loadMcpSdk();
  const timeoutMs = config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  const onOuterAbort = () => controller.abort(args.signal.reason);
  // Aborted while the SDK loaded (the agent closed at once): the attempt ends before it starts.
  if (args.signal.aborted) onOuterAbort();
  else args.signal.addEventListener('abort', onOuterAbort, { once: true });
  let created: CreatedTransport | undefined;
  let client: Client | undefined;
  let closing = false;
  const close = async () => {
    closing = true;
    await client?.close().catch(() => undefined);
    if (!client) await created?.transport.close().catch(() => undefined);
    await created?.ownedServer?.close().catch(() => undefined);
  };
  try {
    const step = async <T>(work: () => Promise<T>): Promise<T> => {
      const raced = await raceAbort(work, controller.signal);
      if (raced.aborted) throw controller.signal.reason;
      return raced.value;
    };
    created = await step(() => createMcpTransport(name, config));
    // The SDK's own validator, made only when a listed tool has an output schema: building one
    // (an Ajv instance with its formats) costs about 0.3 ms, per connection, and most servers'
    // tools declare none. One per connection still, as the SDK does (schemas of two servers never meet).
    let validator: InstanceType<typeof AjvJsonSchemaValidator> | undefined;
    const made: Client = new ClientClass(MCP_CLIENT_INFO, {
      capabilities: {},
      jsonSchemaValidator: { getValidator: (schema) => (validator ??= new AjvJsonSchemaValidator()).getValidator(schema) },
      listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => args.onToolsChanged(made) } },
    });
    client = made;
    made.onclose = () => {
      if (!closing) args.onClose(made);
    };
    await step(() => made.connect(created!.transport as never, { signal: controller.signal, timeout: timeoutMs }));
    const tools = await step(() => listMcpTools(made, { signal: controller.signal, timeoutMs }));
    const version = made.getServerVersion();
    const transport = created.transport;
    const closeReason = () => (typeof transport.closeReason === 'string' ? transport.closeReason : undefined);
    return { client: made, tools, serverInfo: version ? { name: version.name, version: version.version } : undefined, close, closeReason };
  } catch (error) {
    await close();
    if (McpConnectionError.isInstance(error)) throw error;
    const needsAuth = await isAuthError(error, config).catch(() => false);
    const detail = describeThrown(error);
    throw new McpConnectionError(
      needsAuth
        ? `The MCP server "${name}" asks for authorization (${detail}). Pass its credentials in headers, or an authProvider, in mcpServers.${name}.`
        : `The MCP server "${name}" could not be connected: ${detail}.`,
      { server: name, needsAuth, cause: error },
    );
  } finally {
    clearTimeout(timer);
    args.signal.removeEventListener('abort', onOuterAbort);
  }
}
