import { ConfigurationError } from '../errors/configuration-error.js';
import type { PermissionRuleInput } from '../types/permission.js';
import { formatRule } from './parse-rule.js';

/**
 * A rule as the string form the rule set reads: strings as they are, `{ toolName, ruleContent }`
 * objects (the Claude Agent SDK's shape) as `toolName(ruleContent)`.
 * @throws ConfigurationError for anything else, naming it.
 */
export function ruleString(rule: PermissionRuleInput): string {
  if (typeof rule === 'string') return rule;
  if (typeof rule === 'object' && rule !== null && typeof rule.toolName === 'string' && (rule.ruleContent === undefined || typeof rule.ruleContent === 'string')) {
    return formatRule({ toolName: rule.toolName, ...(rule.ruleContent !== undefined && rule.ruleContent !== '' ? { pattern: rule.ruleContent } : {}) });
  }
  throw new ConfigurationError(
    `Permission rule ${JSON.stringify(rule)} is neither a string ("Bash(npm test:*)") nor a rule object ({ toolName: "Bash", ruleContent: "npm test:*" }).`,
  );
}
