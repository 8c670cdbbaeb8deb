import { ConfigurationError } from '../errors/configuration-error.js';
import { MCP_TOOL_PREFIX, mcpServerOfToolName } from '../mcp/index.js';
import { nearestName } from '../options/nearest-name.js';
import type { ServerTool } from '../tools/server-tool.js';
import type { Tool } from '../tools/types.js';
import type { AgentDefinition } from './agent-definition.js';

/** What the check reads of the parent agent. */
export interface SubagentParent {
  readonly tools: ReadonlyMap<string, Tool>;
  readonly toolbox: { readonly serverTools: readonly ServerTool[] };
  /** The configured MCP servers (their tools are listed once connected, or later, or never). */
  readonly toolSources?: { readonly mcpServerNames: readonly string[] } | undefined;
}

/**
 * A subagent's `tools` must name tools its parent has (function tools, deferred ones included, or
 * provider server tools): a subagent never gets a tool its parent lacks, and a typo would silently
 * leave it without one. A name `mcp__<server>__<tool>` of a configured MCP server is accepted as
 * rules accept it: its tools are not known before the server connects (`createAgent` checks before
 * that), and a server that is down or drops the tool must not keep the agent from starting; the
 * subagent gets the tool while its parent has it. `EnterPlanMode` is refused: no subagent gets it.
 * `ReadToolOutput` (with `context.spill`) names the subagent's own, which pages its own outputs.
 * @throws ConfigurationError naming the type, the tool and the tools there are.
 */
export function assertAgentToolsExist(agents: Readonly<Record<string, AgentDefinition>>, parent: SubagentParent): void {
  const serverNames = parent.toolbox.serverTools.map((tool) => tool.name);
  const mcpServers = parent.toolSources?.mcpServerNames ?? [];
  for (const [type, definition] of Object.entries(agents)) {
    for (const name of definition.tools ?? []) {
      if (name === 'EnterPlanMode') {
        throw new ConfigurationError(`createAgent: agents["${type}"].tools names "EnterPlanMode", which subagents never get (only the main agent plans); remove it.`);
      }
      if (parent.tools.has(name) || serverNames.includes(name)) continue;
      const server = mcpServerOfToolName(name);
      // A tool's name, not the bare server's (`mcp__<server>__<tool>`, the tool not empty).
      if (server !== undefined && name.length > `${MCP_TOOL_PREFIX}${server}__`.length && mcpServers.includes(server)) continue;
      const names = [...parent.tools.keys(), ...serverNames];
      const near = nearestName(name, names);
      throw new ConfigurationError(
        `createAgent: agents["${type}"].tools names "${name}", which this agent does not have${near ? ` (did you mean "${near}"?)` : ''}; a subagent only gets tools of its parent. Tools: ${names.join(', ')}.`,
      );
    }
  }
}
