import {
  resolveToolSources,
  resolveToolSourcesNow,
  Toolbox,
  toolSourcesAreAsync,
  type LoadingStop,
  type ResolvedToolSources,
  type ToolSourceSink,
} from '../tool-sources/index.js';
import { resolveToolSearch } from '../tool-search/index.js';
import { isServerTool, type ServerTool } from '../tools/server-tool.js';
import type { Tool } from '../tools/types.js';
import type { AgentCore } from '../runtime/agent-core.js';
import type { AgentOptions } from '../runtime/agent-options.js';

/**
 * The agent's tool sources (MCP servers, skills) and its toolbox: the seam between `createAgent`
 * and the tool-sources folder. Everything the agent core needs from them passes here.
 */

/**
 * Builds the agent's toolbox: the host's tools, those of its sources, the built-ins, and a tool
 * search when some tool is deferred or `toolSearch` is set.
 * @throws ConfigurationError for duplicate names, or a tool search the model cannot run.
 */
export function agentToolbox(options: AgentOptions, builtins: Tool[], sources: ResolvedToolSources): Toolbox {
  const host = options.tools ?? [];
  const tools = [...host.filter((tool): tool is Tool => !isServerTool(tool)), ...sources.tools, ...builtins];
  const wantsSearch = options.toolSearch !== undefined || tools.some((tool) => tool.deferLoading === true);
  const model = options.model;
  const search = wantsSearch ? resolveToolSearch(options.toolSearch ?? 'auto', model.capabilities?.toolSearch ?? 'none', model.modelId) : undefined;
  return new Toolbox({ tools, serverTools: host.filter((tool): tool is ServerTool => isServerTool(tool)), ...(search ? { search } : {}) });
}

/**
 * Calls `make` with the resolved tool sources: at once when nothing needs loading, else once the
 * skills are loaded and the MCP servers connected (the caller's `agent.ready`). When `make`
 * fails, the connections are closed again; when `stop` is stopped (the agent closed while
 * connecting), the servers are closed at once instead of waiting for their connect timeouts.
 */
export function withToolSources(
  options: AgentOptions,
  make: (sources: ResolvedToolSources) => AgentCore | Promise<AgentCore>,
  stop?: LoadingStop,
): AgentCore | Promise<AgentCore> {
  if (!toolSourcesAreAsync(options)) return make(resolveToolSourcesNow(options));
  return resolveToolSources(options, stop).then(async (sources) => {
    try {
      return await make(sources);
    } catch (error) {
      await sources.close();
      throw error;
    }
  });
}

/**
 * A stand-in for sources still loading, to check what can be checked at once: no MCP tools yet
 * (rules may name the configured servers), the skills when they are given as an array, else one
 * placeholder skill (so the `Skill` tool exists for rules that name it).
 */
export function pendingToolSources(options: AgentOptions): ResolvedToolSources {
  const skills = Array.isArray(options.skills) ? options.skills : options.skills ? [{ name: 'loading', description: 'Skills are loading.', instructions: '' }] : [];
  return { ...resolveToolSourcesNow({ skills }), mcpServerNames: Object.keys(options.mcpServers ?? {}) };
}

/**
 * Connects a running agent to its sources: MCP status changes become `mcp-server-status` events
 * (each server's state is announced once at the start), and tools a server adds mid-session join
 * the toolbox as deferred tools.
 */
export function attachToolSources(core: AgentCore): void {
  const sources = core.toolSources;
  if (!sources) return;
  if (!sources.holdsOutsideConnections) {
    sources.attach(sinkOf(() => core));
    return;
  }
  // An open stdio pipe or socket is a root for the garbage collector: reached through it
  // strongly, an agent dropped without close() would live, with its server, until the process
  // exits. (A WeakRef keeps the agent through the young-generation collections of this task; a
  // cost beside a process or a socket, which is why only such connections pay it.)
  sources.attach(weakSink(new WeakRef(core)));
  droppedSources.register(core, sources, sources);
}

/**
 * A sink that reaches the agent through `agent` only. Made in a function of its own: closures
 * made where `core` is in scope share the context that holds it, so they would reach it strongly.
 */
function weakSink(agent: WeakRef<AgentCore>): ToolSourceSink {
  return sinkOf(() => agent.deref());
}

/** The sink reporting to the agent `agent()` gives (none once it was collected). */
function sinkOf(agent: () => AgentCore | undefined): ToolSourceSink {
  return {
    onMcpState: (state) => agent()?.emit({ type: 'mcp-server-status', ...state }),
    onToolsAdded: (tools) => agent()?.toolbox.addLateTools(tools) ?? [],
  };
}

/**
 * The tool sources of agents dropped without `close()` whose connections reach outside the
 * process: closed once the agent is collected (a stdio server's process ends, a socket closes).
 */
const droppedSources = new FinalizationRegistry<ResolvedToolSources>((sources) => {
  sources.close().catch(() => undefined);
});

/** The agent is closing its sources itself: nothing is left for its collection to close. */
export function closingToolSources(sources: ResolvedToolSources): void {
  droppedSources.unregister(sources);
}
