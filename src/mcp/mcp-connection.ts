import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpConnectionError } from '../errors/mcp-connection-error.js';
import { loadOnce } from '../lazy/load-once.js';
import { raceAbort } from '../permissions/race-abort.js';
import type { ConnectedClient } from './connect-mcp-client.js';
import type { McpServerConfig, McpServerStatus } from './mcp-server-config.js';
import type { McpToolInfo } from './mcp-tool-info.js';

/** What a connection reports to its owner. */
export interface McpConnectionListener {
  /** The status, error or server info changed. */
  onChange(connection: McpConnection): void;
  /** The server's tools are known: after connecting, after reconnecting, after a list change. */
  onTools(connection: McpConnection, tools: McpToolInfo[]): void;
}

type McpClientCode = typeof import('./mcp-client-code.js');

/**
 * Loads the client code on the first connection attempt (it is asynchronous anyway); a connected
 * server has loaded it, so its calls read `loadClientCode.loaded` without waiting. A load that
 * failed is forgotten, so the next attempt (a reconnection, the next agent) tries again.
 */
const loadClientCode = loadOnce((): Promise<McpClientCode> => import('./mcp-client-code.js'));

const DEFAULT_TOOL_TIMEOUT_MS = 600_000;
const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 3_600_000;

/** Progress only keeps a call alive (`toolTimeoutMs` restarts, up to `maxTotalTimeoutMs`); its numbers are not shown. */
const ignoreProgress = (): void => undefined;

/** Why a call was cancelled when it reached `maxTotalTimeoutMs` (the server reads it in `notifications/cancelled`). */
class TotalTimeout extends Error {
  override name = 'TotalTimeout';
}

/** What a call gets back: the protocol's `CallToolResult`. */
export type McpCallResult = { content?: unknown; structuredContent?: unknown; isError?: unknown };

/** A listing of a client's tools under way, and whether another change was announced meanwhile. */
interface ToolRefresh {
  client: Client;
  again: boolean;
  done: Promise<void>;
}

/**
 * One agent's connection to one MCP server: connects (bounded by `connectTimeoutMs`), calls tools,
 * follows tool list changes, and when the connection is lost reconnects with exponential backoff
 * (`reconnect`), then `failed`; a call to a server that is not connected tries once at once.
 */
export class McpConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  status: McpServerStatus = 'pending';
  /** Why the server is not connected, when it is not. */
  error: Error | undefined;
  serverInfo: { name: string; version: string } | undefined;
  readonly #listener: McpConnectionListener;
  #connected: ConnectedClient | undefined;
  #attempt: Promise<void> | undefined;
  #attemptController: AbortController | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Failed attempts since the connection was lost. */
  #failures = 0;
  #closed = false;
  /** The tool listing under way after a change announcement, if any (see `#refreshTools`). */
  #refreshing: ToolRefresh | undefined;
  /** The server's tools as last listed (kept through a lost connection), once it has listed them. */
  tools: McpToolInfo[] | undefined;
  /** Who closes the connection, for the error of a call made after it is closed. */
  readonly #closedBy: string;

  /**
   * @param closedBy - says what closed the connection and how to get a new one, for the error of
   *   a call made after it (the agent's own connection by default).
   */
  constructor(name: string, config: McpServerConfig, listener: McpConnectionListener, closedBy = 'was closed with the agent; create a new agent to use it again') {
    this.name = name;
    this.config = config;
    this.#listener = listener;
    this.#closedBy = closedBy;
  }

  /**
   * Connects (for the first time, or again after it `failed` or asked for authorization); a
   * failure leaves the server `failed` (or `needs-auth`). An attempt under way is joined, not
   * doubled; a server connected, closed, or reconnecting with backoff is left as it is. Never throws.
   */
  connect(): Promise<void> {
    if (this.status !== 'pending' && this.status !== 'failed' && this.status !== 'needs-auth') return Promise.resolve();
    return this.#tryConnect('fail');
  }

  /**
   * Calls a tool. Connects first when the server is not connected.
   * @throws McpConnectionError, McpToolCallError or McpProtocolError naming what went wrong.
   */
  async callTool(toolName: string, input: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult> {
    const client = await this.#usableClient(signal);
    // Kept: when the transport closes, the connection is dropped before the call's promise settles.
    const connected = this.#connected?.client === client ? this.#connected : undefined;
    const timeout = this.config.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    const maxTotal = this.config.maxTotalTimeoutMs ?? Math.max(DEFAULT_MAX_TOTAL_TIMEOUT_MS, timeout);
    // The total cap runs on its own timer (the SDK's `maxTotalTimeout` is only checked when
    // progress arrives): it cancels the call as an abort does, so the server is told.
    const call = new AbortController();
    const stop = () => call.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    if (signal.aborted) stop();
    const timer = setTimeout(() => call.abort(new TotalTimeout(`The call was open for ${maxTotal} ms in all (maxTotalTimeoutMs).`)), maxTotal);
    try {
      // The SDK asks the server for progress (and lets it restart the clock) only with a handler.
      const options = { signal: call.signal, timeout, resetTimeoutOnProgress: true, onprogress: ignoreProgress };
      return (await client.callTool({ name: toolName, arguments: input }, undefined, options)) as McpCallResult;
    } catch (error) {
      if (signal.aborted) throw error;
      const { classifyCallError, totalTimeoutError } = loadClientCode.loaded ?? (await loadClientCode());
      if (call.signal.reason instanceof TotalTimeout) throw totalTimeoutError(this.name, toolName, maxTotal, error);
      const classified = classifyCallError(error, this.name, toolName, timeout, connected?.closeReason());
      if (classified.connectionLost) this.#lost(client);
      throw classified.error;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
    }
  }

  /** Closes the connection for good: no more reconnection, the server's process (if any) ends. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#attemptController?.abort(new Error('closed'));
    const connected = this.#connected;
    this.#connected = undefined;
    this.#setStatus('closed', undefined);
    await connected?.close();
  }

  async #usableClient(signal: AbortSignal): Promise<Client> {
    if (this.#closed) throw new McpConnectionError(`The MCP server "${this.name}" ${this.#closedBy}.`, { server: this.name });
    if (this.#connected) return this.#connected.client;
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const raced = await raceAbort(() => this.#tryConnect(this.status === 'reconnecting' ? 'retry' : 'fail'), signal);
    if (raced.aborted) throw signal.reason;
    if (this.#connected) return (this.#connected as ConnectedClient).client;
    const needsAuth = McpConnectionError.isInstance(this.error) && this.error.needsAuth;
    throw new McpConnectionError(
      `The MCP server "${this.name}" is not connected (${this.status}${this.error ? `: ${this.error.message.replace(/\.$/, '')}` : ''}), so the call was not made.${needsAuth ? ' The server needs authorization; the host has to provide it.' : ' Try again later or do without it.'}`,
      { server: this.name, needsAuth, cause: this.error },
    );
  }

  /** One connection attempt at a time; `retry` continues the backoff on failure, `fail` ends in `failed`. */
  #tryConnect(onFailure: 'fail' | 'retry'): Promise<void> {
    this.#attempt ??= this.#connectOnce(onFailure).finally(() => {
      this.#attempt = undefined;
    });
    return this.#attempt;
  }

  async #connectOnce(onFailure: 'fail' | 'retry'): Promise<void> {
    const controller = new AbortController();
    this.#attemptController = controller;
    let connected: ConnectedClient;
    // A change announced before the connection is ours (while the tools were listed, say): the list read may predate it.
    let changedWhileConnecting = false;
    try {
      const { connectMcpClient } = await loadClientCode();
      connected = await connectMcpClient({
        name: this.name,
        config: this.config,
        signal: controller.signal,
        onClose: (client) => this.#lost(client),
        onToolsChanged: (client) => {
          if (this.#connected?.client === client) void this.#refreshTools(client);
          else changedWhileConnecting = true;
        },
      });
    } catch (error) {
      if (this.#closed) return;
      this.#failed(error, onFailure);
      return;
    } finally {
      this.#attemptController = undefined;
    }
    if (this.#closed) {
      await connected.close();
      return;
    }
    this.#connected = connected;
    this.#failures = 0;
    this.serverInfo = connected.serverInfo;
    this.#listed(connected.tools);
    if (changedWhileConnecting) {
      await this.#refreshTools(connected.client);
      // Lost or closed meanwhile: that path has set the status.
      if (this.#connected !== connected) return;
    }
    this.#setStatus('connected', undefined);
  }

  #failed(error: unknown, onFailure: 'fail' | 'retry'): void {
    const failure =
      McpConnectionError.isInstance(error) || !(error instanceof Error)
        ? (error as Error)
        : new McpConnectionError(`The MCP server "${this.name}" could not be connected: ${error.message}`, { server: this.name, cause: error });
    if (McpConnectionError.isInstance(failure) && failure.needsAuth) return this.#setStatus('needs-auth', failure);
    if (onFailure === 'fail') return this.#setStatus('failed', failure);
    this.#failures++;
    this.error = failure;
    this.#schedule();
  }

  /** The transport closed, or failed under a call: drop the client and reconnect with backoff. */
  #lost(client: Client): void {
    if (this.#closed || this.#connected?.client !== client) return;
    const connected = this.#connected;
    this.#connected = undefined;
    void connected.close();
    this.#failures = 0;
    const reason = connected.closeReason();
    const message = reason ? `The connection to the MCP server "${this.name}" was lost: ${reason} Reconnecting.` : `The connection to the MCP server "${this.name}" was lost; reconnecting.`;
    this.#setStatus('reconnecting', new McpConnectionError(message, { server: this.name }));
    this.#schedule();
  }

  #schedule(): void {
    const { maxAttempts = 5, initialDelayMs = 500, maxDelayMs = 30_000 } = this.config.reconnect ?? {};
    if (this.#failures >= maxAttempts) return this.#setStatus('failed', this.error);
    if (this.status !== 'reconnecting') this.#setStatus('reconnecting', this.error);
    else this.#listener.onChange(this);
    const delay = Math.min(initialDelayMs * 2 ** this.#failures, maxDelayMs);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#tryConnect('retry');
    }, delay);
    // A pending reconnection must not keep a Node process alive on its own.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /**
   * Lists the tools again after the server announced a change. One listing at a time per client:
   * a change announced while one is under way makes one more listing after it, however many
   * announcements came. So a storm of announcements costs at most two listings, and an older
   * listing answered late (an HTTP server answers requests in any order) never replaces a newer
   * one: a tool whose latest listing dropped `readOnlyHint` is never trusted again by a stale
   * answer. Resolves once the list is read as of the latest announcement.
   */
  #refreshTools(client: Client): Promise<void> {
    if (this.#connected?.client !== client) return Promise.resolve();
    const running = this.#refreshing;
    if (running?.client === client) {
      running.again = true;
      return running.done;
    }
    const refresh: ToolRefresh = { client, again: false, done: Promise.resolve() };
    refresh.done = (async () => {
      try {
        do {
          refresh.again = false;
          if (this.#connected?.client !== client) return;
          try {
            const { listMcpTools } = loadClientCode.loaded ?? (await loadClientCode());
            const tools = await listMcpTools(client, { timeoutMs: this.config.connectTimeoutMs ?? 30_000 });
            if (this.#connected?.client === client) this.#listed(tools);
          } catch {
            // The old list stays; a broken connection shows up on the next call.
          }
        } while (refresh.again);
      } finally {
        if (this.#refreshing === refresh) this.#refreshing = undefined;
      }
    })();
    this.#refreshing = refresh;
    return refresh.done;
  }

  #listed(tools: McpToolInfo[]): void {
    this.tools = tools;
    this.#listener.onTools(this, tools);
  }

  #setStatus(status: McpServerStatus, error: Error | undefined): void {
    this.status = status;
    this.error = error;
    this.#listener.onChange(this);
  }
}
