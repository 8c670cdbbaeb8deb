import type { ReadTargets, Tool, ToolStateStore } from '../tools/types.js';
import { compileRule, matchesPath, type CompiledRule, type RuleBehavior } from './compile-rule.js';
import { declaredTargets, uncheckablePathRule } from './path-rule-targets.js';
import { argumentError, isObjectValue } from '../errors/argument-error.js';

/**
 * Read rules for every tool: a `Read(pattern)` deny or ask rule protects the paths it matches
 * from any tool that declares what it reads (`ruleTarget.reads`), not just from the Read tool.
 */

/** The tool whose path rules hold for every tool's reads. */
export const READ_TOOL_NAME = 'Read';

/** `agent.toolState` key prefix of the Read rules a directory search must skip: `permissions.read-rules:<toolUseId>` → rule strings. */
export const READ_RULES_KEY_PREFIX = 'permissions.read-rules:';

/** Whether a rule is a `Read(pattern)` rule. */
const isReadPathRule = (rule: CompiledRule): boolean => rule.toolName === READ_TOOL_NAME && rule.pattern !== undefined;

/** Whether a list has a `Read(pattern)` rule (only then is it worth asking a tool what a call reads). */
export function hasReadPathRule(rules: readonly CompiledRule[]): boolean {
  return rules.some(isReadPathRule);
}

/** What a call reads, per its tool; a tool whose `reads` throws counts as reading something unknown. */
export function readTargetsOf(tool: Pick<Tool, 'name' | 'ruleTarget'>, input: unknown): ReadTargets | undefined {
  return tool.name === READ_TOOL_NAME ? undefined : declaredTargets(tool.ruleTarget?.reads, input, 'reads');
}

/** The first Read rule of a list (deny or ask) that matches one of the paths a call reads. */
export function matchReadPaths(rules: readonly CompiledRule[], targets: ReadTargets, behavior: RuleBehavior, cwd: string | undefined): string | undefined {
  for (const rule of rules) {
    if (!isReadPathRule(rule)) continue;
    if (targets.paths.some((path) => matchesPath(rule, path, behavior, cwd))) return rule.rule;
  }
  return undefined;
}

/**
 * A Read rule that cannot be checked against a call: it reads something unknown, or searches a
 * directory below which the rule may match and does not skip such files itself.
 */
export function uncheckableRead(rules: readonly CompiledRule[], targets: ReadTargets, cwd: string | undefined): string | undefined {
  return uncheckablePathRule(rules, isReadPathRule, targets.unknown, targets.skipsRuleMatches ? [] : (targets.directories ?? []), cwd);
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
  if (!isObjectValue(store) || typeof store.get !== 'function' || typeof store.set !== 'function') throw argumentError('readRuleMatcher', 'store', "a tool-state store (the tool's agent.toolState)", store);
  if (typeof toolUseId !== 'string') throw argumentError('readRuleMatcher', 'toolUseId', "the call's toolUseId (a string)", toolUseId);
  if (cwd !== undefined && typeof cwd !== 'string') throw argumentError('readRuleMatcher', 'cwd', 'a directory (a string) or undefined', cwd);
  const recorded = store.get<string[] | null>(READ_RULES_KEY_PREFIX + toolUseId) ?? undefined;
  if (recorded === undefined) return undefined;
  store.set(READ_RULES_KEY_PREFIX + toolUseId, null);
  const rules = recorded.map(compileRule).filter((rule) => rule.pattern !== undefined);
  if (rules.length === 0) return undefined;
  return (path, aliases = []) => rules.some((rule) => [path, ...aliases].some((spelling) => matchesPath(rule, spelling, 'deny', cwd)));
}
