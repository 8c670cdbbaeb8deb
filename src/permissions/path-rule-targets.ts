import { describeThrown } from '../errors/describe-thrown.js';
import { splitGlobBase } from './compile-glob.js';
import type { CompiledRule } from './compile-rule.js';
import { normalizePath, toWorkspacePath } from './workspace-path.js';

/**
 * What the read rules (`Read(pattern)`) and the write rules (`Edit(pattern)`, `Write(pattern)`)
 * share in holding for every tool: asking a tool what a call touches, and finding the rule that
 * cannot be checked against it.
 */

/** What a call reads or writes, per its tool's declaration; a declaration that throws counts as touching something unknown. */
export function declaredTargets<Targets extends { paths: string[]; unknown?: string }>(
  declare: ((input: unknown) => Targets) | undefined,
  input: unknown,
  verb: 'reads' | 'writes',
): Targets | undefined {
  if (declare === undefined) return undefined;
  try {
    return declare(input);
  } catch (error) {
    return { paths: [], unknown: `what the call ${verb} could not be determined (${describeThrown(error)})` } as unknown as Targets;
  }
}

/**
 * The first rule of `rules` that `isPathRule` takes and that cannot be checked against a call: the
 * call touches something unknown, or works below one of `directories` where the rule may match.
 */
export function uncheckablePathRule(
  rules: readonly CompiledRule[],
  isPathRule: (rule: CompiledRule) => boolean,
  unknown: string | undefined,
  directories: readonly string[],
  cwd: string | undefined,
): string | undefined {
  for (const rule of rules) {
    if (!isPathRule(rule)) continue;
    if (unknown !== undefined) return rule.rule;
    if (directories.some((directory) => couldMatchBelow(rule, directory, cwd))) return rule.rule;
  }
  return undefined;
}

const segments = (path: string) => path.split('/').filter((segment) => segment !== '' && segment !== '.');
const isPrefix = (shorter: string[], longer: string[]) => shorter.length <= longer.length && shorter.every((segment, index) => segment === longer[index]);

/** Whether a path rule's glob may match a path below `directory` (or the directory itself). */
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
