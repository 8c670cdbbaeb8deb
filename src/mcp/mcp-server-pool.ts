import type { Tool } from '../tools/types.js';
import { McpConnection, type McpConnectionListener } from './mcp-connection.js';
import type { McpServerConfig, McpServerState } from './mcp-server-config.js';
import { createMcpTool, type McpToolHints } from './mcp-tool.js';
import type { McpToolInfo } from './mcp-tool-info.js';
import { mcpToolName } from './mcp-tool-name.js';
import { mcpEndpoint, mcpToolDefinition } from './mcp-fingerprint.js';
import { describeThrown } from '../errors/describe-thrown.js';
import { isSharedMcpServer, type MadeMcpTool, type SharedMcpConnection, type SharedMcpServer } from './shared-mcp-server.js';

/** What the pool reports once the agent is running. */
export interface McpServerPoolListener {
  /** A server's state changed (status, error, tools). */
  onState(state: McpServerState): void;
  /**
   * A server offered tools after the agent's tool list was fixed (a list change, a late
   * connection). They are deferred: reachable through tool search, never in the prefix.
   * @returns the names of the tools the agent took (none without a tool search).
   */
  onToolsAdded(tools: Tool[]): string[];
}

interface ServerTools {
  /** Tools made so far, by their name on the server. */
  byServerName: Map<string, Tool>;
  /** Their annotations as last listed, by name on the server (each tool reads its own). */
  hints: Map<string, McpToolHints>;
  /** Names given so far (the model's names). */
  taken: Set<string>;
  /** The server's current list, by name on the server. */
  listed: Set<string>;
  skipped: Map<string, string>;
}

/**
 * The MCP servers of one agent: connects them all before the first request, turns their tools
 * into agent tools (named `mcp__<server>__<tool>`, in configuration order, then listing order),
 * tracks their states, and hands tools that arrive later to the agent as deferred tools. A shared
 * server (`sharedMcpServer()`) lends its connection: the agent attaches to it and detaches when
 * it closes, and the connection stays open for the other agents.
 */
export class McpServerPool {
  readonly #connections: McpConnection[];
  /** The shared servers among them, by connection. */
  readonly #shared = new Map<McpConnection, SharedMcpConnection>();
  readonly #tools = new Map<string, ServerTools>();
  #listener: McpServerPoolListener | undefined;
  /** Set once the agent's tool list is fixed: tools made from then on are late. */
  #fixed = false;
  #closed = false;
  /** Ends `connectAll` when the agent closes while a shared connection is still connecting. */
  readonly #closing: { promise: Promise<void>; resolve: () => void };
  /**
   * What the connections report to. Held here for the agent's life: a shared server holds it
   * weakly once 256 later agents are attached, so an agent dropped without `close()` does not stay
   * alive through it for ever.
   */
  readonly #connectionListener: McpConnectionListener = {
    onChange: (connection) => {
      if (!this.#detached(connection)) this.#listener?.onState(this.#state(connection));
    },
    onTools: (connection, tools) => {
      if (!this.#detached(connection)) this.#onTools(connection, tools);
    },
  };

  constructor(configs: Readonly<Record<string, McpServerConfig | SharedMcpServer>>) {
    let resolve!: () => void;
    this.#closing = { promise: new Promise<void>((done) => (resolve = done)), resolve };
    this.#connections = Object.entries(configs).map(([name, config]) => {
      this.#tools.set(name, { byServerName: new Map(), hints: new Map(), taken: new Set(), listed: new Set(), skipped: new Map() });
      if (!isSharedMcpServer(config)) return new McpConnection(name, config, this.#connectionListener);
      const shared = config as SharedMcpConnection;
      const connection = shared.attach(this.#connectionListener);
      this.#shared.set(connection, shared);
      return connection;
    });
  }

  /**
   * Connects every server at once; resolves when each is connected or has failed. A shared
   * server already connected (or reconnecting) is not waited for: its tools as last listed are
   * taken at once; one that failed before is tried again.
   */
  async connectAll(): Promise<void> {
    const connecting = this.#connections.map((connection) => {
      if (this.#shared.has(connection) && connection.tools) this.#onTools(connection, connection.tools);
      return connection.connect();
    });
    // Closing the agent ends its own connections' attempts, but not a shared one's: it stops waiting.
    await Promise.race([Promise.all(connecting), this.#closing.promise]);
  }

  /**
   * True when a connection of this pool's own (not a shared server's) reaches outside the process
   * or past this library: a stdio server's process, an HTTP server's socket, a host's transport.
   * Such a connection is a root for the garbage collector while it is open.
   */
  get holdsOutsideConnections(): boolean {
    return this.#connections.some((connection) => !this.#shared.has(connection) && connection.config.type !== 'sdk');
  }

  /**
   * The tools known so far, server by server in configuration order, each server's by name: the
   * order they go in the request's tool list is the same whatever order the server lists them in
   * (a listing's order may change from one connection to the next, and the tools are the start of
   * the prompt cache's key: a session whose tools came in another order would write its whole
   * history to the cache again).
   */
  tools(): Tool[] {
    return [...this.#tools.values()].flatMap((server) => [...server.byServerName.values()].sort(byName));
  }

  /**
   * Fixes the tool list: tools offered from now on go to `listener.onToolsAdded` (deferred), and
   * state changes to `listener.onState`.
   */
  attach(listener: McpServerPoolListener): void {
    this.#fixed = true;
    this.#listener = listener;
  }

  /** Every server's state, in configuration order. */
  states(): McpServerState[] {
    return this.#connections.map((connection) => this.#state(connection));
  }

  /**
   * Closes the agent's own connections (ending the processes of stdio servers) and detaches from
   * the shared ones, which stay open for other agents; the agent reports each server `closed`.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#closing.resolve();
    await Promise.all(
      this.#connections.map((connection) => {
        const shared = this.#shared.get(connection);
        if (!shared) return connection.close();
        shared.detach(this.#connectionListener);
        this.#listener?.onState(this.#state(connection));
        return undefined;
      }),
    );
  }

  /** A shared connection this agent no longer uses (it closed): its news are not the agent's. */
  #detached(connection: McpConnection): boolean {
    return this.#closed && this.#shared.has(connection);
  }

  #state(connection: McpConnection): McpServerState {
    const server = this.#tools.get(connection.name)!;
    const tools = [...server.byServerName.entries()].filter(([name]) => server.listed.has(name)).map(([, tool]) => tool.name);
    // A shared connection goes on after this agent closed; for the agent, the server is closed.
    const closed = this.#detached(connection);
    return {
      name: connection.name,
      transport: connection.config.type,
      status: closed ? 'closed' : connection.status,
      ...(connection.error && !closed ? { error: connection.error.message } : {}),
      tools,
      skippedTools: [...server.skipped].map(([name, reason]) => ({ name, reason })),
      ...(connection.serverInfo ? { serverInfo: { ...connection.serverInfo } } : {}),
      ...(this.#shared.has(connection) ? { shared: true as const } : {}),
    };
  }

  /**
   * The agent tool for a listed tool, or why it cannot be offered. A shared connection makes it
   * once for every agent that names and defers it alike (its annotations follow the latest
   * listing for all of them), so an agent per request does not check and wrap every tool again.
   */
  #toolFor(connection: McpConnection, info: McpToolInfo, name: string, deferLoading: boolean, endpoint: string): MadeMcpTool {
    const make = (): MadeMcpTool => {
      try {
        const hints: McpToolHints = { annotations: info.annotations, definition: definitionOf(info) };
        const tool = createMcpTool({
          server: connection.name,
          name,
          info,
          hints,
          deferLoading,
          call: (toolName, input, signal) => connection.callTool(toolName, input, signal),
          identity: () => ({ endpoint, serverInfoName: connection.serverInfo?.name }),
        });
        return { tool, hints };
      } catch (error) {
        return { problem: describeThrown(error) };
      }
    };
    return this.#shared.get(connection)?.madeTool(info, name, deferLoading, make) ?? make();
  }

  /**
   * The names of the listing's tools not named yet. An agent that has named none yet names them
   * as every such agent does, so a shared connection names each listing once for all of them.
   */
  #namesFor(connection: McpConnection, listed: McpToolInfo[], server: ServerTools): ReadonlyMap<string, string> {
    const shared = this.#shared.get(connection);
    const fresh = server.taken.size === 0 && server.skipped.size === 0 && server.byServerName.size === 0;
    return shared && fresh ? shared.namesOf(listed, () => newToolNames(connection.name, listed, server)) : newToolNames(connection.name, listed, server);
  }

  #onTools(connection: McpConnection, listed: McpToolInfo[]): void {
    const server = this.#tools.get(connection.name)!;
    server.listed = new Set(listed.map((info) => info.name));
    const added: Tool[] = [];
    const names = this.#namesFor(connection, listed, server);
    const endpoint = mcpEndpoint(connection.config);
    for (const info of listed) {
      // A tool listed before keeps its definition (the prefix never changes) but takes the new
      // annotations: a server that drops readOnlyHint is no longer trusted to only read.
      const known = server.hints.get(info.name);
      if (known) {
        known.annotations = info.annotations;
        // A call asked about (or allowed) for the tool as listed before does not run on a changed one.
        if (info.problem === undefined) known.definition = definitionOf(info);
      }
      if (server.byServerName.has(info.name) || server.skipped.has(info.name)) continue;
      if (info.problem !== undefined) {
        server.skipped.set(info.name, `The MCP server "${connection.name}" lists the tool ${JSON.stringify(info.name)} ${info.problem}, so the tool is not offered.`);
        continue;
      }
      const name = names.get(info.name) ?? mcpToolName(connection.name, info.name, server.taken);
      // The prefix is fixed once the agent runs: a tool arriving later can only be found.
      const made = this.#toolFor(connection, info, name, this.#fixed || connection.config.deferLoading === true, endpoint);
      if ('problem' in made) {
        server.skipped.set(info.name, made.problem);
        continue;
      }
      server.byServerName.set(info.name, made.tool);
      server.hints.set(info.name, made.hints);
      server.taken.add(name);
      added.push(made.tool);
    }
    if (this.#fixed && added.length) {
      const taken = new Set(this.#listener?.onToolsAdded(added) ?? []);
      for (const tool of added.filter((candidate) => !taken.has(candidate.name))) {
        const serverName = [...server.byServerName].find(([, made]) => made === tool)![0];
        server.byServerName.delete(serverName);
        server.hints.delete(serverName);
        server.skipped.set(serverName, 'The server added it mid-session and the agent has no tool search to reach it; it is offered from the next session on.');
      }
    }
    this.#listener?.onState(this.#state(connection));
  }
}

/** The fingerprint of each tool as listed (a listing's objects are not changed once made). */
const definitions = new WeakMap<McpToolInfo, string>();

function definitionOf(info: McpToolInfo): string {
  let definition = definitions.get(info);
  if (definition === undefined) definitions.set(info, (definition = mcpToolDefinition(info)));
  return definition;
}

/** Orders by name (UTF-16 code units: the same in every process and locale). */
function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** A tool name the Messages API takes as it is (nothing replaced, nothing cut). */
const PLAIN_TOOL_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * The model's names for the tools of a listing not named yet. They are given in an order that
 * does not depend on the listing's: first the tools whose names need no change, then by name.
 * So when two tools would get the same name (`a.b` and `a_b` both become
 * `mcp__<server>__a_b`), which one keeps it and which one gets a hash is the same in every
 * process, whatever order the server lists them in: a call parked for approval in one process
 * runs the same tool when it is approved in another.
 */
function newToolNames(server: string, listed: readonly McpToolInfo[], tools: ServerTools): Map<string, string> {
  const fresh = listed.filter((info) => info.problem === undefined && !tools.byServerName.has(info.name) && !tools.skipped.has(info.name));
  const rank = (info: McpToolInfo) => (PLAIN_TOOL_NAME.test(info.name) ? 0 : 1);
  fresh.sort((a, b) => rank(a) - rank(b) || byName(a, b));
  const taken = new Set(tools.taken);
  const names = new Map<string, string>();
  for (const info of fresh) {
    if (names.has(info.name)) continue;
    const name = mcpToolName(server, info.name, taken);
    taken.add(name);
    names.set(info.name, name);
  }
  return names;
}
