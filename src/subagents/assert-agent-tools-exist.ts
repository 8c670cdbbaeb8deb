import { ConfigurationError } from '../errors/configuration-error.js';
import { nearestName } from '../options/nearest-name.js';
import type { AgentDefinition } from './agent-definition.js';

/**
 * A subagent's `tools` must name tools its parent has: a subagent never gets a tool its parent
 * lacks, and a typo would silently leave it without one.
 * @throws ConfigurationError naming the type, the tool and the tools there are.
 */
export function assertAgentToolsExist(agents: Readonly<Record<string, AgentDefinition>>, parent: { hasTool(name: string): boolean; tools: ReadonlyMap<string, unknown> }): void {
  for (const [type, definition] of Object.entries(agents)) {
    for (const name of definition.tools ?? []) {
      if (name === 'EnterPlanMode') {
        throw new ConfigurationError(`createAgent: agents["${type}"].tools names "EnterPlanMode", which subagents never get (only the main agent plans); remove it.`);
      }
      if (parent.hasTool(name)) continue;
      const names = [...parent.tools.keys()];
      const near = nearestName(name, names);
      throw new ConfigurationError(
        `createAgent: agents["${type}"].tools names "${name}", which this agent does not have${near ? ` (did you mean "${near}"?)` : ''}; a subagent only gets tools of its parent. Tools: ${names.join(', ')}.`,
      );
    }
  }
}
