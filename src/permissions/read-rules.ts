import type { ReadTargets, Tool, ToolStateStore } from '../tools/types.js';
import { splitGlobBase } from './compile-glob.js';
import { compileRule, matchesPath, type CompiledRule, type RuleBehavior } from './compile-rule.js';
import { normalizePath, toWorkspacePath } from './workspace-path.js';
import { describeThrown } from '../errors/describe-thrown.js';

/**
 * Read rules for every tool: a `Read(pattern)` deny or ask rule protects the paths it matches
 * from any tool that declares what it reads (`ruleTarget.reads`), not just from the Read tool.
 */

/** The tool whose path rules hold for every tool's reads. */
export const READ_TOOL_NAME = 'Read';

/** `agent.toolState` key prefix of the Read rules a directory search must skip: `permissions.read-rules:<toolUseId>` → rule strings. */
export const READ_RULES_KEY_PREFIX = 'permissions.read-rules:';

/** Whether a list has a `Read(pattern)` rule (only then is it worth asking a tool what a call reads). */
export function hasReadPathRule(rules: readonly CompiledRule[]): boolean {
  return rules.some((rule) => rule.toolName === READ_TOOL_NAME && rule.pattern !== undefined);
}

/** What a call reads, per its tool; a tool whose `reads` throws counts as reading something unknown. */
export function readTargetsOf(tool: Pick<Tool, 'name' | 'ruleTarget'>, input: unknown): ReadTargets | undefined {
  const reads = tool.ruleTarget?.reads;
  if (reads === undefined || tool.name === READ_TOOL_NAME) return undefined;
  try {
    return reads(input);
  } catch (error) {
    return { paths: [], unknown: `what the call reads could not be determined (${describeThrown(error)})` };
  }
}

const segments = (path: string) => path.split('/').filter((segment) => segment !== '' && segment !== '.');
const isPrefix = (shorter: string[], longer: string[]) => shorter.length <= longer.length && shorter.every((segment, index) => segment === longer[index]);

/** Whether a Read rule's glob may match a path below `directory` (or the directory itself). */
export function couldMatchBelow(rule: CompiledRule, directory: string, cwd: string | undefined): boolean {
  if (rule.pattern === undefined) return false;
  const located = toWorkspacePath(directory, cwd);
  const { base } = splitGlobBase(normalizePath(rule.pattern.replace(/\\/g, '/')));
  if (rule.pathAbsolute) {
    if (located.absolute === undefined) return true;
    return isPrefix(segments(base), segments(located.absolute)) || isPrefix(segments(located.absolute), segments(base));
  }
  if (base === '.' || located.relative === '.') return true;
  return isPrefix(segments(base), segments(located.relative)) || isPrefix(segments(located.relative), segments(base));
}

/** The first Read rule of a list (deny or ask) that matches one of the paths a call reads. */
export function matchReadPaths(rules: readonly CompiledRule[], targets: ReadTargets, behavior: RuleBehavior, cwd: string | undefined): string | undefined {
  for (const rule of rules) {
    if (rule.toolName !== READ_TOOL_NAME || rule.pattern === undefined) continue;
    if (targets.paths.some((path) => matchesPath(rule, path, behavior, cwd))) return rule.rule;
  }
  return undefined;
}

/**
 * A Read rule that cannot be checked against a call: it reads something unknown, or searches a
 * directory below which the rule may match and does not skip such files itself.
 */
export function uncheckableRead(rules: readonly CompiledRule[], targets: ReadTargets, cwd: string | undefined): string | undefined {
  for (const rule of rules) {
    if (rule.toolName !== READ_TOOL_NAME || rule.pattern === undefined) continue;
    if (targets.unknown !== undefined) return rule.rule;
    if (!targets.skipsRuleMatches && (targets.directories ?? []).some((directory) => couldMatchBelow(rule, directory, cwd))) return rule.rule;
  }
  return undefined;
}

/** Remembers, for one call that skips what the rules keep from reading, which Read rules those are. */
export function recordReadRules(store: ToolStateStore, toolUseId: string, rules: readonly string[]): void {
  store.set(READ_RULES_KEY_PREFIX + toolUseId, [...rules]);
}

/**
 * For a tool that searches directories and declares `skipsRuleMatches`: a predicate telling
 * which files the session's `Read` deny and ask rules keep it from reading, as the permission
 * pipeline recorded them for this call (`undefined` when none apply). The record is cleared.
 * @param path - the file as the tool would show it: absolute, or relative to `cwd`.
 * @param aliases - its other spellings (its real path), also checked.
 */
export function readRuleMatcher(store: ToolStateStore, toolUseId: string, cwd: string | undefined): ((path: string, aliases?: readonly string[]) => boolean) | undefined {
  const recorded = store.get<string[] | null>(READ_RULES_KEY_PREFIX + toolUseId) ?? undefined;
  if (recorded === undefined) return undefined;
  store.set(READ_RULES_KEY_PREFIX + toolUseId, null);
  const rules = recorded.map(compileRule).filter((rule) => rule.pattern !== undefined);
  if (rules.length === 0) return undefined;
  return (path, aliases = []) => rules.some((rule) => [path, ...aliases].some((spelling) => matchesPath(rule, spelling, 'deny', cwd)));
}
