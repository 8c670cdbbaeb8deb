import type { LoadingStop } from './loading-stop.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import { assertMcpServerEntry, isSharedMcpServer, McpServerPool, type McpServerConfig, type McpServerState, type SharedMcpServer } from '../mcp/index.js';
import { wellFormedText } from '../model/code-point-boundary.js';
import type { TextBlock } from '../model/messages.js';
import { createSkillTool, skillListing, skillProblem, type Skill } from '../skills/index.js';
import { SkillFormatError } from '../errors/skill-format-error.js';
import { isThenable } from '../tools/is-thenable.js';
import type { Tool } from '../tools/types.js';

/** The options tool sources come from (a part of the agent's options). */
export interface ToolSourceOptions {
  mcpServers?: Readonly<Record<string, McpServerConfig | SharedMcpServer>>;
  skills?: readonly Skill[] | Promise<readonly Skill[]>;
}

/** Where a running agent's tool sources report to. */
export interface ToolSourceSink {
  /** An MCP server's state changed (and, once, each server's state when the agent starts). */
  onMcpState(state: McpServerState): void;
  /**
   * Tools arrived after the tool list was fixed; they join as deferred tools.
   * @returns the names taken (none when there is no tool search to reach them).
   */
  onToolsAdded(tools: Tool[]): string[];
}

/** What the tool sources of one agent resolved to, before its first request. */
export interface ResolvedToolSources {
  /** Their tools, in a fixed order: MCP tools by server, then the `Skill` tool. */
  tools: Tool[];
  /** Their part of the system prompt (the skill listing). */
  system: TextBlock[];
  /** The MCP servers' states, in configuration order. */
  mcpStates(): McpServerState[];
  /** The names of the configured MCP servers (rules may name them before their tools exist). */
  mcpServerNames: string[];
  /**
   * True when an MCP connection of the agent's own reaches outside the process (a stdio server's
   * process, an HTTP server's socket, a host's transport): being a root for the garbage collector
   * while open, it must reach the agent only weakly, or an agent dropped without `close()` would
   * live, with its server, until the process exits.
   */
  holdsOutsideConnections: boolean;
  /** Starts reporting to the agent; the servers' current states are reported at once. */
  attach(sink: ToolSourceSink): void;
  /** Closes the MCP connections. */
  close(): Promise<void>;
}

/** True when the sources must load before the agent can build its first request. */
export function toolSourcesAreAsync(options: ToolSourceOptions): boolean {
  return Object.keys(options.mcpServers ?? {}).length > 0 || isThenable(options.skills);
}

/**
 * Checks the sources' options before anything connects or loads.
 * @throws ConfigurationError for a malformed `mcpServers` entry or `skills` value.
 */
export function assertToolSourceOptions(options: ToolSourceOptions): void {
  if (options.mcpServers !== undefined) {
    if (typeof options.mcpServers !== 'object' || options.mcpServers === null || Array.isArray(options.mcpServers)) {
      throw new ConfigurationError('createAgent: `mcpServers` must be an object of server configurations (or shared servers) by name, e.g. { notes: { type: \'http\', url } }.');
    }
    if (isSharedMcpServer(options.mcpServers)) {
      const name = options.mcpServers.name;
      throw new ConfigurationError(`createAgent: \`mcpServers\` is the shared server "${name}" itself; give it by name: mcpServers: { ${JSON.stringify(name)}: server }.`);
    }
    for (const [name, config] of Object.entries(options.mcpServers)) assertMcpServerEntry(name, config);
  }
  if (options.skills !== undefined && !isThenable(options.skills)) assertSkills(options.skills);
}

function assertSkills(skills: unknown): asserts skills is readonly Skill[] {
  if (!Array.isArray(skills)) {
    throw new ConfigurationError('createAgent: `skills` must be an array of skills (defineSkill(), or loadSkills(dir) from agent-harness/node).');
  }
  skills.forEach((skill: Skill, index) => {
    const problem = skillProblem(skill ?? {}, `skills[${index}]`);
    if (problem) throw new SkillFormatError(problem, { source: skill?.name ?? `skills[${index}]` });
  });
}

function fromSkills(skills: readonly Skill[]): { tools: Tool[]; system: TextBlock[] } {
  if (skills.length === 0) return { tools: [], system: [] };
  // A lone surrogate in a description (a YAML "\ud800" escape) would make the Messages API refuse every request.
  return { tools: [createSkillTool(skills)], system: [{ type: 'text', text: wellFormedText(skillListing(skills)!) }] };
}

/**
 * No skills, no MCP servers (most agents): one frozen value for all of them, instead of arrays
 * and closures held by every agent for its whole life.
 */
const NO_SOURCES: ResolvedToolSources = Object.freeze({
  tools: Object.freeze([]) as unknown as Tool[],
  system: Object.freeze([]) as unknown as TextBlock[],
  mcpServerNames: Object.freeze([]) as unknown as string[],
  holdsOutsideConnections: false,
  mcpStates: () => [],
  attach: () => undefined,
  close: () => Promise.resolve(),
});

function resolved(skills: readonly Skill[], pool: McpServerPool | undefined, names: string[]): ResolvedToolSources {
  if (skills.length === 0 && !pool && names.length === 0) return NO_SOURCES;
  const fromSkill = fromSkills(skills);
  return {
    tools: [...(pool?.tools() ?? []), ...fromSkill.tools],
    system: fromSkill.system,
    mcpServerNames: names,
    holdsOutsideConnections: pool?.holdsOutsideConnections ?? false,
    mcpStates: () => pool?.states() ?? [],
    attach(sink) {
      if (!pool) return;
      pool.attach({ onState: (state) => sink.onMcpState(state), onToolsAdded: (tools) => sink.onToolsAdded(tools) });
      for (const state of pool.states()) sink.onMcpState(state);
    },
    close: () => pool?.close() ?? Promise.resolve(),
  };
}

/** Resolves sources that need no waiting (skills given as an array, no MCP servers). */
export function resolveToolSourcesNow(options: ToolSourceOptions): ResolvedToolSources {
  const skills = (options.skills ?? []) as readonly Skill[];
  return resolved(skills, undefined, []);
}

/**
 * Loads the skills and connects every MCP server (at once; each within its `connectTimeoutMs`).
 * A server that cannot connect is `failed` and offers no tools; the agent still starts. When
 * loading is stopped first (`stop`), every server is closed and the sources resolve without them.
 * @throws SkillFormatError or ConfigurationError when the skills promise rejects or yields bad skills.
 */
export async function resolveToolSources(options: ToolSourceOptions, stop?: LoadingStop): Promise<ResolvedToolSources> {
  const names = Object.keys(options.mcpServers ?? {});
  const pool = names.length ? new McpServerPool(options.mcpServers!) : undefined;
  // Stopped (the agent closed while connecting): the pool closes, which ends every attempt now.
  if (pool) stop?.listen(() => void pool.close());
  try {
    const [skills] = await Promise.all([Promise.resolve(options.skills ?? []), pool?.connectAll()]);
    assertSkills(skills);
    return resolved(skills, pool, names);
  } catch (error) {
    await pool?.close();
    throw error;
  } finally {
    stop?.listen(undefined);
  }
}
