import type { Tool, WriteTargets } from '../tools/types.js';
import { matchesPath, type CompiledRule, type RuleBehavior } from './compile-rule.js';
import { declaredTargets, uncheckablePathRule } from './path-rule-targets.js';

/**
 * Write rules for every tool: an `Edit(pattern)` or `Write(pattern)` deny or ask rule protects the
 * paths it matches from any tool that declares what it writes (`ruleTarget.writes`: Bash's
 * redirections, `cp`, `rm`, `sed -i` …), not just from the tools that edit a file by path.
 */

/** The tools whose path rules hold for every tool's writes. */
export const WRITE_RULE_TOOL_NAMES: ReadonlySet<string> = new Set(['Edit', 'Write']);

/** Whether a rule is an `Edit(pattern)` or `Write(pattern)` rule. */
export function isWritePathRule(rule: CompiledRule): boolean {
  return WRITE_RULE_TOOL_NAMES.has(rule.toolName) && rule.pattern !== undefined;
}

/** Whether a list has a write path rule (only then is it worth asking a tool what a call writes). */
export function hasWritePathRule(rules: readonly CompiledRule[]): boolean {
  return rules.some(isWritePathRule);
}

/** What a call writes, per its tool; a tool whose `writes` throws counts as writing something unknown. */
export function writeTargetsOf(tool: Pick<Tool, 'name' | 'ruleTarget'>, input: unknown): WriteTargets | undefined {
  return declaredTargets(tool.ruleTarget?.writes, input, 'writes');
}

/** The first write rule of a list (deny or ask) that matches one of the paths a call writes. */
export function matchWritePaths(rules: readonly CompiledRule[], targets: WriteTargets, behavior: RuleBehavior, cwd: string | undefined): string | undefined {
  for (const rule of rules) {
    if (!isWritePathRule(rule)) continue;
    if (targets.paths.some((path) => matchesPath(rule, path, behavior, cwd))) return rule.rule;
    // A rule on everything below a directory (`secrets/**`) holds for writing into it (`rm -r secrets`).
    if ((targets.directories ?? []).some((directory) => matchesPath(rule, `${directory.replace(/\/+$/, '')}/${BELOW}`, behavior, cwd))) return rule.rule;
  }
  return undefined;
}

/** A name standing for any file below a directory: no glob matches it but one that matches every name there. */
const BELOW = '\u0000any';

/**
 * A write rule that cannot be checked against a call: it writes something unknown, or writes into
 * a directory below which the rule may match (`rm -r build` and `Edit(**\/.env)`).
 */
export function uncheckableWrite(rules: readonly CompiledRule[], targets: WriteTargets, cwd: string | undefined): string | undefined {
  return uncheckablePathRule(rules, isWritePathRule, targets.unknown, targets.directories ?? [], cwd);
}
