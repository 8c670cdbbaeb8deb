import { ConfigurationError } from '../errors/configuration-error.js';
import { describeJson } from '../options/describe-json.js';
import type { PermissionMode, PermissionUpdate } from '../types/permission.js';
import { assertPermissionMode } from './assert-permission-mode.js';
import type { RuleBehavior } from './compile-rule.js';
import { ruleString } from './rule-input.js';

const RULE_BEHAVIORS: readonly RuleBehavior[] = ['allow', 'deny', 'ask'];

/** What {@link parsePermissionUpdates} asks of the agent the updates are for. */
export interface ParsePermissionUpdatesOptions {
  /** Throws a `ConfigurationError` for a rule to add that is malformed or names no tool of the agent (or of one above it). */
  checkRule: (behavior: RuleBehavior, rule: string) => void;
  /** Throws a `ConfigurationError` for a mode the agent may not switch to (`bypassPermissions` without the opt-in). */
  assertModeAllowed: (mode: PermissionMode) => void;
}

/**
 * Checks permission updates whole (from `canUseTool`, a resolved approval or the host), applying
 * none: an answer with one bad update changes nothing. Returns plain copies (the known fields,
 * rules as strings) to record and apply.
 * @throws ConfigurationError naming the bad update and the fix.
 */
export function parsePermissionUpdates(updates: unknown, options: ParsePermissionUpdatesOptions): PermissionUpdate[] | undefined {
  if (updates === undefined) return undefined;
  if (!Array.isArray(updates)) {
    throw new ConfigurationError(
      `updatedPermissions must be an array of permission updates, e.g. [{ type: 'addRules', behavior: 'allow', rules: ['Bash(npm test:*)'], destination: 'session' }], got ${describeJson(updates)}.`,
    );
  }
  return updates.map((update: unknown): PermissionUpdate => {
    if (typeof update !== 'object' || update === null || Array.isArray(update)) {
      throw new ConfigurationError(`A permission update must be an object such as { type: 'addRules', behavior: 'allow', rules: [...], destination: 'session' }, got ${describeJson(update)}.`);
    }
    const { type, destination } = update as { type?: unknown; destination?: unknown };
    if (destination !== 'session' && destination !== 'host') {
      throw new ConfigurationError(
        `A permission update needs \`destination\`: "session" (this session keeps it) or "host" (also announced as a permission-update event for the host to keep), got ${describeJson(destination)}.`,
      );
    }
    switch (type) {
      case 'addRules':
      case 'replaceRules':
      case 'removeRules': {
        const { behavior, rules } = update as { behavior?: unknown; rules?: unknown };
        if (!RULE_BEHAVIORS.includes(behavior as RuleBehavior)) {
          throw new ConfigurationError(`A permission update of type "${type}" needs \`behavior\`: "allow", "deny" or "ask", got ${describeJson(behavior)}.`);
        }
        if (!Array.isArray(rules)) {
          throw new ConfigurationError(
            `A permission update of type "${type}" needs \`rules\`: an array of rules ("Bash(npm test:*)" or { toolName: "Bash", ruleContent: "npm test:*" }), got ${describeJson(rules)}.`,
          );
        }
        const strings = rules.map(ruleString);
        if (type !== 'removeRules') for (const rule of strings) options.checkRule(behavior as RuleBehavior, rule);
        return { type, behavior: behavior as RuleBehavior, rules: strings, destination };
      }
      case 'setMode': {
        const { mode } = update as { mode?: unknown };
        assertPermissionMode(mode);
        options.assertModeAllowed(mode);
        return { type, mode, destination };
      }
      case 'addDirectories':
      case 'removeDirectories': {
        const { directories } = update as { directories?: unknown };
        if (!Array.isArray(directories) || directories.some((directory) => typeof directory !== 'string' || directory === '')) {
          throw new ConfigurationError(`A permission update of type "${type}" needs \`directories\`: non-empty path strings, got ${describeJson(directories)}.`);
        }
        return { type, directories: [...(directories as string[])], destination };
      }
      default:
        throw new ConfigurationError(`Unknown permission update type ${describeJson(type)}; use addRules, replaceRules, removeRules, setMode, addDirectories or removeDirectories.`);
    }
  });
}
