import { ConfigurationError } from '../errors/configuration-error.js';
import { nearestName } from '../options/nearest-name.js';
import { mcpServerOfRule, ruleNamesTool } from './rule-names-tool.js';
import type { PermissionRules } from '../types/permission.js';
import { READ_TOOL_NAME } from './read-rules.js';
import { WRITE_RULE_TOOL_NAMES } from './write-rules.js';

/** Options of {@link assertRulesNameTools}. */
export interface AssertRulesNameToolsOptions {
  /**
   * The agent's MCP servers: a rule may name one (`mcp__github`, `mcp__github__*`) or any tool of
   * one (`mcp__github__create_issue`), also before that tool is listed or when it arrives later.
   * @default []
   */
  mcpServers?: readonly string[];
  /**
   * Whether a tool of the agent says what its calls read (`ruleTarget.reads`): a `Read(pattern)`
   * deny or ask rule then applies to those reads, also when no tool is named `Read`.
   * @default false
   */
  pathReaders?: boolean;
  /**
   * Whether a tool of the agent says what its calls write (`ruleTarget.writes`): an
   * `Edit(pattern)` or `Write(pattern)` deny or ask rule then applies to those writes, also when
   * no tool has that name.
   * @default false
   */
  pathWriters?: boolean;
}

/**
 * Whether a deny or ask rule on the reads or writes of every tool applies to some tool of the
 * agent (see the options). An allow rule covers only the tool it names.
 */
function coversPaths(behavior: 'allow' | 'deny' | 'ask', rule: string, name: string, options: AssertRulesNameToolsOptions): boolean {
  if (behavior === 'allow' || !/\(.*\S.*\)\s*$/.test(rule)) return false;
  return (name === READ_TOOL_NAME && options.pathReaders === true) || (WRITE_RULE_TOOL_NAMES.has(name) && options.pathWriters === true);
}

/**
 * Checks that every rule names one of the given tools, an MCP server of the agent, or a tool of
 * one, or is a path rule on what the agent's tools read or write (`Read(…)`, `Edit(…)`,
 * `Write(…)`; see the options): a typo in a deny rule would otherwise never apply.
 * @throws ConfigurationError naming the rule, a near name when the case differs, and the tools there are.
 */
export function assertRulesNameTools(rules: PermissionRules | undefined, toolNames: readonly string[], options: AssertRulesNameToolsOptions = {}): void {
  const servers = options.mcpServers ?? [];
  for (const behavior of ['allow', 'deny', 'ask'] as const) {
    for (const rule of rules?.[behavior] ?? []) {
      const name = typeof rule === 'string' ? rule.trim().split('(')[0]!.trim() : '';
      if (name === '' || toolNames.some((tool) => ruleNamesTool(name, tool)) || coversPaths(behavior, rule, name, options)) continue;
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
