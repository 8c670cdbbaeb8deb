import type { ToolRuleTarget } from '../tools/types.js';
import { compileGlob, type GlobMatcher } from './compile-glob.js';
import { parseRule } from './parse-rule.js';
import { expandedCommands } from './expanded-command-words.js';
import { parseShellCommand } from './shell/parse-shell-command.js';
import { splitShellCommand } from './split-shell-command.js';
import { isAbsolutePath, isHomePath, toWorkspacePath } from './workspace-path.js';

/** Which rule list is being matched; allow rules match more strictly than deny and ask rules. */
export type RuleBehavior = 'allow' | 'deny' | 'ask';

/** A rule parsed and compiled once, when it is added. */
export interface CompiledRule {
  /** The rule string (trimmed), as reported in decisions and snapshots. */
  rule: string;
  toolName: string;
  /** The raw pattern; `undefined` for a bare `Tool` rule. */
  pattern: string | undefined;
  /** For command targets: the prefix of a `prefix:*` pattern, whitespace-collapsed. */
  commandPrefix: string | undefined;
  /** For command targets: the exact command of a pattern without `:*`, whitespace-collapsed. */
  commandExact: string | undefined;
  /** For path targets: the glob, compiled. */
  pathGlob: GlobMatcher | undefined;
  /** For path targets: whether the glob is absolute (matched against absolute paths). */
  pathAbsolute: boolean;
  /** For path targets: whether the glob starts at a home directory (`~/…`). */
  pathHome: boolean;
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * Parses and compiles a rule for both target kinds (the tool it applies to is known only when a
 * call is matched).
 * @throws ConfigurationError for a malformed rule.
 */
export function compileRule(rule: string): CompiledRule {
  const parsed = parseRule(rule);
  const compiled: CompiledRule = {
    rule: rule.trim(),
    toolName: parsed.toolName,
    pattern: parsed.pattern,
    commandPrefix: undefined,
    commandExact: undefined,
    pathGlob: undefined,
    pathAbsolute: false,
    pathHome: false,
  };
  if (parsed.pattern === undefined) return compiled;
  if (parsed.pattern.endsWith(':*')) compiled.commandPrefix = collapse(parsed.pattern.slice(0, -2));
  else compiled.commandExact = collapse(parsed.pattern);
  let glob = parsed.pattern.replace(/\\/g, '/');
  while (glob.startsWith('./')) glob = glob.slice(2);
  compiled.pathAbsolute = isAbsolutePath(glob);
  compiled.pathHome = isHomePath(glob);
  compiled.pathGlob = compileGlob(compiled.pathAbsolute ? normalizeGlobRoot(glob) : glob);
  return compiled;
}

/** Collapses repeated separators of an absolute glob without touching its wildcards. */
function normalizeGlobRoot(glob: string): string {
  return glob.replace(/\/{2,}/g, '/');
}

/** Strips leading `NAME=value` assignments, so `FOO=1 rm -rf x` still meets a deny rule on `rm`. */
function withoutAssignments(command: string): string {
  return command.replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)\s+)+/, '');
}

/** Whether one simple command matches a command pattern. */
export function matchesCommandSegment(rule: CompiledRule, segment: string): boolean {
  if (rule.commandExact !== undefined) return segment === rule.commandExact;
  const prefix = rule.commandPrefix!;
  return segment === prefix || segment.startsWith(`${prefix} `);
}

/**
 * Characters that let a command line do more than its words say (comments, expansions, escapes,
 * groups, history): an allow rule never matches a line that has one, so it is asked instead.
 */
const UNSAFE_FOR_ALLOW = /[\n\r#$`\\!{}()]/;

/** Whether a command line is plain enough for an allow rule to vouch for it. */
export function isPlainCommand(command: string): boolean {
  return !UNSAFE_FOR_ALLOW.test(command);
}

/**
 * Whether a command line hides what it runs behind expansions (`$X`, `${…}`, `$(…)`, backticks,
 * `$'…'`, process substitution): no rule can tell what such a line will run.
 */
export function hidesCommands(command: string): boolean {
  return /`|\$[A-Za-z_{(@*#?$!0-9'"]|[<>]\(/.test(command);
}

/**
 * The words of a command line as a deny rule should see them: escapes and quotes removed
 * (`\rm`, `'rm'`), split at every operator and grouping character, paths reduced to their last
 * part (`/bin/rm` → `rm`). Over-inclusive on purpose: deny and ask rules fail closed.
 */
function commandWords(command: string): string[] {
  return command
    .replace(/\\(.)/gs, '$1')
    .replace(/['"]/g, '')
    .split(/[\s;&|(){}!<>=`$]+/)
    .filter((word) => word !== '')
    .map((word) => word.slice(word.lastIndexOf('/') + 1));
}

/** The words of a rule's command pattern, the first one reduced to its name (`/bin/rm` → `rm`). */
export function ruleCommandWords(rule: CompiledRule): string[] {
  const wanted = (rule.commandPrefix ?? rule.commandExact ?? '').split(' ').filter(Boolean);
  if (wanted.length > 0) wanted[0] = wanted[0]!.slice(wanted[0]!.lastIndexOf('/') + 1);
  return wanted;
}

/** Whether the rule's words occur, one after another, anywhere in `words`. */
function occursIn(rule: CompiledRule, words: readonly string[]): boolean {
  const wanted = ruleCommandWords(rule);
  if (wanted.length === 0) return false;
  for (let start = 0; start + wanted.length <= words.length; start++) {
    if (wanted.every((word, offset) => words[start + offset] === word)) return true;
  }
  return false;
}

/** Whether the rule's words occur, one after another, anywhere in the line's words. */
function occursInWords(rule: CompiledRule, command: string): boolean {
  return occursIn(rule, commandWords(command));
}

/**
 * Whether a simple command, as bash will run it (quotes, escapes and line continuations removed,
 * braces expanded: `{curl,http://x}`, `c{u,}rl`, `cu\⏎rl`), is or holds the rule's command.
 */
function matchesExpanded(rule: CompiledRule, command: string): boolean {
  return expandedCommands(command).some(({ words }) => {
    if (matchesCommandSegment(rule, collapse(words.join(' ')))) return true;
    return occursWithOptions(ruleCommandWords(rule), words.map((word) => word.slice(word.lastIndexOf('/') + 1)), words);
  });
}

/**
 * Whether the rule's words occur in order in a command's words with nothing but options (and the
 * value each may take) between them: `git -C repo push` and `npm --prefix . run deploy` are
 * `git push` and `npm run deploy` to a deny rule. `names` are the words reduced to their last
 * path part (for the first rule word), `words` as written (for the rest).
 */
function occursWithOptions(wanted: readonly string[], names: readonly string[], words: readonly string[]): boolean {
  if (wanted.length === 0) return false;
  // Where the next rule word may stand, from every place the first one does: one pass per rule
  // word, each position visited once (no recursion, linear in the words however many options).
  let positions: number[] = [];
  names.forEach((name, index) => {
    if (name === wanted[0]) positions.push(index + 1);
  });
  for (let next = 1; next < wanted.length && positions.length > 0; next++) {
    const found: number[] = [];
    const seen = new Set<number>();
    const stack = [...positions];
    while (stack.length > 0) {
      const index = stack.pop()!;
      if (seen.has(index) || index >= words.length) continue;
      seen.add(index);
      const word = words[index]!;
      if (word === wanted[next]) found.push(index + 1);
      // An option, or an option and its value (`-C repo`; `--git-dir=x` carries its own).
      else if (word.startsWith('-') && word !== '--') stack.push(index + 1, ...(word.includes('=') ? [] : [index + 2]));
    }
    positions = found;
  }
  return positions.length > 0;
}

/** The simple commands of a line and of the substitutions in it (`$(…)`, backticks, `<(…)`), as the shell parser reads them. */
function nestedSegments(command: string, depth = 0): string[] {
  const texts = splitShellCommand(command).map((segment) => segment.text);
  if (depth >= 4) return texts;
  const parsed = parseShellCommand(command);
  return [...texts, ...parsed.substitutions.flatMap((inner) => nestedSegments(inner, depth + 1))];
}

/**
 * Whether a command matches a rule with a pattern. Deny and ask rules match when the whole line
 * does, when any simple command does — also one inside a substitution, and after leading
 * variable assignments — or when the
 * rule's words occur anywhere in the line once quotes, escapes, grouping and paths are stripped,
 * or in the words bash will run once braces are expanded and line continuations joined:
 * wrappers (`sudo rm`, `{ rm …; }`, `\rm`, `/bin/rm`, `{rm,-rf,x}`, `r\⏎m`) cannot slip past them. Allow rules are
 * matched per simple command by the rule set (every part must be allowed); here only an exact
 * pattern equal to the whole, plain line counts.
 */
export function matchesCommand(rule: CompiledRule, command: string, behavior: RuleBehavior): boolean {
  const whole = collapse(command);
  if (behavior === 'allow') return rule.commandExact !== undefined && isPlainCommand(command) && whole === rule.commandExact;
  if (matchesCommandSegment(rule, whole)) return true;
  if (nestedSegments(command).some((text) => matchesCommandSegment(rule, text) || matchesCommandSegment(rule, withoutAssignments(text)))) {
    return true;
  }
  return occursInWords(rule, command) || matchesExpanded(rule, command);
}

/**
 * Whether a path matches a rule with a pattern. Absolute globs match the absolute path. Relative
 * globs match the path relative to `cwd`; for allow rules only paths inside the workspace, so
 * `Edit(**)` never allows `../x`, `/etc/x` or `~/.ssh/x`; deny and ask rules also match outside
 * paths as given. A home glob (`~/…`) matches a path written from home (`~/…`), for an allow rule
 * only one that does not climb out of it with `..`.
 */
export function matchesPath(rule: CompiledRule, path: string, behavior: RuleBehavior, cwd: string | undefined): boolean {
  const located = toWorkspacePath(path, cwd);
  const glob = rule.pathGlob!;
  if (rule.pathAbsolute) return located.absolute !== undefined && glob.test(located.absolute);
  if (behavior === 'allow' && !located.insideWorkspace && !(located.home && rule.pathHome && !located.relative.split('/').includes('..'))) return false;
  return glob.test(located.relative);
}

/**
 * Whether a rule with a pattern matches one call, given the tool's rule target. A tool without a
 * `ruleTarget`, or an input whose target field is not a string, never matches a pattern.
 */
export function matchesTarget(
  rule: CompiledRule,
  target: ToolRuleTarget | undefined,
  input: unknown,
  behavior: RuleBehavior,
  cwd: string | undefined,
): boolean {
  if (target === undefined || typeof input !== 'object' || input === null) return false;
  const value = (input as Record<string, unknown>)[target.field];
  if (typeof value !== 'string') return false;
  if (target.kind === 'command') return matchesCommand(rule, value, behavior);
  if (matchesPath(rule, value, behavior, cwd)) return true;
  // Deny and ask rules also hold for the other spellings the tool knows (its real path).
  if (behavior === 'allow' || !target.aliases) return false;
  let aliases: string[];
  try {
    aliases = target.aliases(value);
  } catch {
    aliases = [];
  }
  return aliases.some((alias) => matchesPath(rule, alias, behavior, cwd));
}
