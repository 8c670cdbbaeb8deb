import { ConfigurationError } from '../errors/configuration-error.js';
import { nearestName } from '../options/nearest-name.js';
import type { PermissionRules } from '../types/permission.js';

/**
 * Checks that every rule names one of the given tools: a typo in a deny rule would otherwise
 * never apply.
 * @throws ConfigurationError naming the rule, the nearest tool name (a typo, another case), and the tools there are.
 */
export function assertRulesNameTools(rules: PermissionRules | undefined, toolNames: readonly string[]): void {
  for (const behavior of ['allow', 'deny', 'ask'] as const) {
    for (const rule of rules?.[behavior] ?? []) {
      const name = typeof rule === 'string' ? rule.trim().split('(')[0]!.trim() : '';
      if (name === '' || toolNames.includes(name)) continue;
      const near = nearestName(name, toolNames);
      const caseOnly = near !== undefined && near.toLowerCase() === name.toLowerCase();
      throw new ConfigurationError(
        `The ${behavior} rule "${rule}" names no tool of this agent${near ? `; did you mean "${near}"?${caseOnly ? ' (Names are case-sensitive.)' : ''}` : '.'} Tools: ${toolNames.join(', ')}.`,
      );
    }
  }
}
