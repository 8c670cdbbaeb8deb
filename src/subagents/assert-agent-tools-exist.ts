import { ConfigurationError } from '../errors/configuration-error.js';
import { nearestName } from '../options/nearest-name.js';
import type { AgentOptions } from '../runtime/agent-options.js';
import type { ServerTool } from '../tools/server-tool.js';
import type { Tool } from '../tools/types.js';
import type { AgentDefinition } from './agent-definition.js';
import { subagentToolNames, subagentToolSearch } from './build-subagent-core.js';

/** What the check reads of the parent agent. */
export interface SubagentParent {
  readonly options: AgentOptions;
  readonly tools: ReadonlyMap<string, Tool>;
  readonly toolbox: { readonly serverTools: readonly ServerTool[] };
}

/**
 * A subagent's `tools` must name tools its parent has (function tools, deferred ones included, or
 * provider server tools): a subagent never gets a tool its parent lacks, and a typo would silently
 * leave it without one. A type that gets deferred tools must be able to search them on its model.
 * @throws ConfigurationError naming the type, the tool and the tools there are.
 */
export function assertAgentToolsExist(agents: Readonly<Record<string, AgentDefinition>>, parent: SubagentParent): void {
  const serverNames = parent.toolbox.serverTools.map((tool) => tool.name);
  for (const [type, definition] of Object.entries(agents)) {
    for (const name of definition.tools ?? []) {
      if (name === 'EnterPlanMode') {
        throw new ConfigurationError(`createAgent: agents["${type}"].tools names "EnterPlanMode", which subagents never get (only the main agent plans); remove it.`);
      }
      if (parent.tools.has(name) || serverNames.includes(name)) continue;
      const names = [...parent.tools.keys(), ...serverNames];
      const near = nearestName(name, names);
      throw new ConfigurationError(
        `createAgent: agents["${type}"].tools names "${name}", which this agent does not have${near ? ` (did you mean "${near}"?)` : ''}; a subagent only gets tools of its parent. Tools: ${names.join(', ')}.`,
      );
    }
    if (definition.model && subagentToolNames(parent.tools.values(), definition).some((tool) => tool.deferLoading === true)) {
      subagentToolSearch(parent.options, type, definition.model);
    }
  }
}
