import { ConfigurationError } from '../errors/configuration-error.js';
import { argumentError } from '../errors/argument-error.js';
import { assertMcpServerConfig } from './assert-mcp-server-config.js';
import { McpConnection, type McpConnectionListener } from './mcp-connection.js';
import type { McpServerConfig, McpServerStatus } from './mcp-server-config.js';
import { assertMcpServerName } from './mcp-tool-name.js';
import type { McpToolHints } from './mcp-tool.js';
import type { McpToolInfo } from './mcp-tool-info.js';
import type { Tool } from '../tools/types.js';

/** The options of {@link sharedMcpServer}. */
export interface SharedMcpServerOptions {
  /**
   * The server's name: the key every agent gives it in `mcpServers` (its tools are named
   * `mcp__<name>__<tool>`, the same in every agent and every process). 1–32 letters, digits, `-`
   * and single `_`.
   */
  name: string;
  /**
   * How to reach the server: any `mcpServers` entry (`{ type: 'http', url }`, `{ type: 'sdk',
   * server }`, `{ type: 'transport', transport }`, or `stdioMcpServer(...)` from
   * `agent-harness/node`). Its timeouts, `reconnect` and `deferLoading` apply as they would to an
   * agent's own connection. Share only a server whose connection is the same for every agent:
   * one that acts for a user (that user's `headers` or `authProvider`) belongs to that user's
   * agents, not to a shared connection.
   */
  server: McpServerConfig;
}

/** An agent tool made from a listed tool (with the hints it reads), or why the tool is not offered. */
export type MadeMcpTool = { tool: Tool; hints: McpToolHints } | { problem: string };

/**
 * The agents a shared connection holds strongly, newest last. Past these, the oldest is held
 * only weakly: a `WeakRef` costs an agent far more than its lifetime of reports (V8 keeps its
 * target through the scavenges of the task that made it, so the whole agent is copied to the old
 * generation: about 40 µs an agent in a loop of agents made per request), while most agents
 * close long before 256 others have started.
 */
const MAX_STRONGLY_HELD = 256;

/**
 * Fans a connection's reports out to the agents using it. Agents that close are dropped at once;
 * one dropped without `close()` is held strongly only while it is among the latest
 * {@link MAX_STRONGLY_HELD}, then weakly, so it is collected and forgotten.
 */
class AgentListeners implements McpConnectionListener {
  /** The latest agents, oldest first (a `Set` keeps insertion order). */
  readonly #recent = new Set<McpConnectionListener>();
  /** Older ones, held weakly. */
  readonly #older = new Set<WeakRef<McpConnectionListener>>();
  /** Each older listener's reference, to detach it without a search (keys are held weakly). */
  readonly #refs = new WeakMap<McpConnectionListener, WeakRef<McpConnectionListener>>();
  /** Drops the reference of an agent collected without closing, so the set never grows with them. */
  readonly #collected = new FinalizationRegistry<WeakRef<McpConnectionListener>>((ref) => this.#older.delete(ref));

  add(listener: McpConnectionListener): void {
    if (this.#recent.has(listener) || this.#refs.has(listener)) return;
    this.#recent.add(listener);
    if (this.#recent.size <= MAX_STRONGLY_HELD) return;
    const oldest = this.#recent.values().next().value!;
    this.#recent.delete(oldest);
    const ref = new WeakRef(oldest);
    this.#older.add(ref);
    this.#refs.set(oldest, ref);
    this.#collected.register(oldest, ref, ref);
  }

  remove(listener: McpConnectionListener): void {
    if (this.#recent.delete(listener)) return;
    const ref = this.#refs.get(listener);
    if (!ref) return;
    this.#older.delete(ref);
    this.#refs.delete(listener);
    this.#collected.unregister(ref);
  }

  /** How many agents are attached and not yet collected. */
  get size(): number {
    this.#each(() => undefined);
    return this.#recent.size + this.#older.size;
  }

  onChange(connection: McpConnection): void {
    this.#each((listener) => listener.onChange(connection));
  }

  onTools(connection: McpConnection, tools: Parameters<McpConnectionListener['onTools']>[1]): void {
    this.#each((listener) => listener.onTools(connection, tools));
  }

  #each(report: (listener: McpConnectionListener) => void): void {
    const deliver = (listener: McpConnectionListener) => {
      // One agent's listener cannot keep the others from hearing (they report to the host's handlers).
      try {
        report(listener);
      } catch {
        // The agent's own listeners report their errors; nothing here to add.
      }
    };
    for (const listener of [...this.#recent]) deliver(listener);
    for (const ref of [...this.#older]) {
      const listener = ref.deref();
      // An agent dropped without close() was collected: forgotten here too.
      if (listener) deliver(listener);
      else this.#older.delete(ref);
    }
  }
}

/**
 * One connection to an MCP server, shared by every agent that names it in `mcpServers` (made by
 * {@link sharedMcpServer}). The host owns it: agents attach and detach; only `close()` ends it.
 */
export interface SharedMcpServer {
  /** Marks the entry as shared in `mcpServers`. */
  readonly type: 'shared';
  /** The server's name: the key agents give it in `mcpServers`. */
  readonly name: string;
  /** How the server is reached (the `server` option). */
  readonly config: McpServerConfig;
  /** Where the connection stands: `pending` until the first agent (or `connect()`) connects it. */
  readonly status: McpServerStatus;
  /** Why the server is not connected, when it is `failed`, `needs-auth` or `reconnecting`. */
  readonly error: Error | undefined;
  /** True once `close()` was called. */
  readonly closed: boolean;
  /** How many live agents use the connection (agents closed, or dropped and collected, are not counted). */
  readonly agents: number;
  /**
   * Connects now (at the host's start, say) rather than when the first agent starts. Resolves once
   * connected or `failed` (see `status` and `error`); never rejects. A server that `failed` (or
   * `needs-auth`) is tried again; one that is connected, or reconnecting with backoff, is left as
   * it is.
   */
  connect(): Promise<void>;
  /**
   * Closes the connection for good (a stdio server's process ends). Agents still using it get an
   * `McpConnectionError` from its tools, and report the server `closed`.
   */
  close(): Promise<void>;
}

/** The shared server's implementation, with what agents use to attach to it. */
export class SharedMcpConnection implements SharedMcpServer {
  readonly type = 'shared' as const;
  readonly name: string;
  readonly config: McpServerConfig;
  readonly #listeners = new AgentListeners();
  readonly #connection: McpConnection;
  #closed = false;
  /** Tools made from each listed tool, by model name and deferral (see `madeTool`). */
  readonly #made = new WeakMap<McpToolInfo, Map<string, MadeMcpTool>>();
  /** The model's names for each listing, as an agent that has named no tool yet gives them. */
  readonly #names = new WeakMap<readonly McpToolInfo[], ReadonlyMap<string, string>>();

  constructor(options: SharedMcpServerOptions) {
    this.name = options.name;
    this.config = options.server;
    this.#connection = new McpConnection(
      options.name,
      options.server,
      this.#listeners,
      "is a shared server that was closed (its close() was called); make a new one with sharedMcpServer() to use it again",
    );
  }

  get status(): McpServerStatus {
    return this.#connection.status;
  }

  get error(): Error | undefined {
    return this.#connection.error;
  }

  get closed(): boolean {
    return this.#closed;
  }

  get agents(): number {
    return this.#listeners.size;
  }

  connect(): Promise<void> {
    return this.#connection.connect();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#connection.close();
  }

  /**
   * An agent starts using the connection. It hears the connection's changes while it is
   * referenced: past the latest 256 agents the connection holds it weakly, so an agent never closed
   * is collected once 256 later agents are attached.
   */
  attach(listener: McpConnectionListener): McpConnection {
    this.#listeners.add(listener);
    return this.#connection;
  }

  /**
   * The tool made from `info` under `name` (deferred or not), made by `make` the first time. Agents
   * that give a listed tool the same name share one tool, as they share host tools: it reaches the
   * same connection, and the annotations it reads follow the latest listing for all of them. A
   * later listing brings new objects, so a tool first made from it (for a later agent) is new too.
   */
  madeTool(info: McpToolInfo, name: string, deferLoading: boolean, make: () => MadeMcpTool): MadeMcpTool {
    let byName = this.#made.get(info);
    if (!byName) this.#made.set(info, (byName = new Map()));
    const key = deferLoading ? `${name} deferred` : name;
    let made = byName.get(key);
    if (!made) byName.set(key, (made = make()));
    return made;
  }

  /** The names `make` gives a listing's tools (an agent that has named none yet), made once per listing. */
  namesOf(listed: readonly McpToolInfo[], make: () => ReadonlyMap<string, string>): ReadonlyMap<string, string> {
    let names = this.#names.get(listed);
    if (!names) this.#names.set(listed, (names = make()));
    return names;
  }

  /** An agent is done with the connection (it closed). */
  detach(listener: McpConnectionListener): void {
    this.#listeners.remove(listener);
  }
}

/** True for an `mcpServers` entry made by {@link sharedMcpServer} (an object only shaped like one is not). */
export function isSharedMcpServer(value: unknown): value is SharedMcpServer {
  return value instanceof SharedMcpConnection;
}

/**
 * Checks one `mcpServers` entry before anything connects: a configuration, or a shared server
 * given under its own name and not closed.
 * @throws ConfigurationError naming the server, the bad field and the fix.
 */
export function assertMcpServerEntry(name: string, entry: McpServerConfig | SharedMcpServer): void {
  if (!isSharedMcpServer(entry)) return assertMcpServerConfig(name, entry);
  assertMcpServerName(name);
  if (entry.name !== name) {
    throw new ConfigurationError(
      `createAgent: mcpServers.${name} is the shared server "${entry.name}": give it under its own name (mcpServers: { ${JSON.stringify(entry.name)}: server }), so its tools are named mcp__${entry.name}__<tool> in every agent.`,
    );
  }
  if (entry.closed) throw new ConfigurationError(`createAgent: mcpServers.${name} is a shared server that was closed (its close() was called); make a new one with sharedMcpServer().`);
}

/**
 * A connection to one MCP server that many agents share, for hosts that make an agent per request:
 * each agent would otherwise connect on its own before its first request (a stdio server's process
 * started, an HTTP server's handshake and tool listing) and disconnect when it closes. The
 * connection opens when the first agent starts (or at `connect()`), reconnects with backoff as an
 * agent's own does, and stays open until its `close()`. A server that `failed` is tried again when
 * the next agent starts. Tool names, rules and approvals are the same as with an agent's own
 * connection, so a pending approval resumes in an agent of either kind. Close each agent: it then
 * detaches at once; one never closed is held only while it is among the latest 256 attached.
 * @throws ConfigurationError for a bad `name` or `server`.
 * @example
 * ```ts
 * const notes = sharedMcpServer({ name: 'notes', server: stdioMcpServer({ command: 'node', args: ['notes-server.js'] }) });
 * // per request:
 * const agent = createAgent({ model, mcpServers: { notes } });
 * // ... then agent.close(), which leaves `notes` open; at shutdown:
 * await notes.close();
 * ```
 */
export function sharedMcpServer(options: SharedMcpServerOptions): SharedMcpServer {
  if (typeof options !== 'object' || options === null) throw argumentError('sharedMcpServer', 'options', '{ name, server }', options);
  if (typeof options.name !== 'string') {
    throw new ConfigurationError(`sharedMcpServer: name must be the server's name in mcpServers (a string such as "notes"), got ${JSON.stringify(options.name)}.`);
  }
  assertMcpServerName(options.name, 'sharedMcpServer: name');
  if (isSharedMcpServer(options.server)) {
    throw new ConfigurationError(`sharedMcpServer: server "${options.name}" is already a shared server; pass it to the agents' mcpServers as it is.`);
  }
  assertMcpServerConfig(options.name, options.server, 'sharedMcpServer: server');
  return new SharedMcpConnection({ name: options.name, server: options.server });
}
