import { ConfigurationError } from '../errors/configuration-error.js';
import { nearestName } from '../options/nearest-name.js';
import { mcpServerOfRule, ruleNamesTool } from './rule-names-tool.js';
import type { PermissionRules } from '../types/permission.js';

/** Options of {@link assertRulesNameTools}. */
export interface AssertRulesNameToolsOptions {
  /**
   * The agent's MCP servers: a rule may name one (`mcp__github`, `mcp__github__*`) or any tool of
   * one (`mcp__github__create_issue`), also before that tool is listed or when it arrives later.
   * @default []
   */
  mcpServers?: readonly string[];
}

/**
 * Checks that every rule names one of the given tools, an MCP server of the agent, or a tool of
 * one: a typo in a deny rule would otherwise never apply.
 * @throws ConfigurationError naming the rule, a near name when the case differs, and the tools there are.
 */
export function assertRulesNameTools(rules: PermissionRules | undefined, toolNames: readonly string[], options: AssertRulesNameToolsOptions = {}): void {
  const servers = options.mcpServers ?? [];
  for (const behavior of ['allow', 'deny', 'ask'] as const) {
    for (const rule of rules?.[behavior] ?? []) {
      const name = typeof rule === 'string' ? rule.trim().split('(')[0]!.trim() : '';
      if (name === '' || toolNames.some((tool) => ruleNamesTool(name, tool))) continue;
      const server = mcpServerOfRule(name);
      if (server !== undefined && servers.includes(server)) continue;
      const candidates = [...toolNames, ...servers.map((known) => `mcp__${known}`)];
      const near = nearestName(name, candidates);
      const caseOnly = near !== undefined && near.toLowerCase() === name.toLowerCase();
      const serverHint = server !== undefined ? ` The agent has ${servers.length ? `the MCP servers ${servers.join(', ')}` : 'no MCP servers'}.` : '';
      throw new ConfigurationError(
        `The ${behavior} rule "${rule}" names no tool of this agent${near ? `; did you mean "${near}"?${caseOnly ? ' (Names are case-sensitive.)' : ''}` : '.'}${serverHint} Tools: ${toolNames.join(', ')}.`,
      );
    }
  }
}
