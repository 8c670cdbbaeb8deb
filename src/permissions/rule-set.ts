import { ConfigurationError } from '../errors/configuration-error.js';
import type { Tool } from '../tools/types.js';
import { compileRule, hidesCommands, isPlainCommand, matchesCommandSegment, matchesTarget, ruleCommandWords, type CompiledRule, type RuleBehavior } from './compile-rule.js';
import { expandedCommands, patternMaySpell } from './expanded-command-words.js';
import { hasReadPathRule, matchReadPaths, readTargetsOf, uncheckableRead } from './read-rules.js';
import { parseShellCommand } from './shell/parse-shell-command.js';
import { renamesCommands } from './renames-commands.js';
import { ruleNamesTool } from './rule-names-tool.js';
import { splitShellCommand } from './split-shell-command.js';
import { hasWritePathRule, matchWritePaths, uncheckableWrite, writeTargetsOf } from './write-rules.js';
import type { PermissionRules } from '../types/permission.js';
import { callTargetsOf } from './call-targets.js';

/** The parts of a tool that rule matching reads (`kind`, when given, lets `Edit(…)` deny and ask rules hold for every tool that edits files). */
export type RuleMatchTool = Pick<Tool, 'name' | 'ruleTarget'> & Partial<Pick<Tool, 'kind'>>;

/** The tool whose path deny and ask rules hold for every tool that edits a file by path (`Write` too). */
const EDIT_TOOL_NAME = 'Edit';

/** Whether a rule applies to a tool: it names it, or it is an `Edit(…)` deny or ask rule and the tool edits a file by path. */
function ruleApplies(rule: CompiledRule, tool: RuleMatchTool, behavior: RuleBehavior): boolean {
  if (ruleNamesTool(rule.toolName, tool.name)) return true;
  return behavior !== 'allow' && rule.toolName === EDIT_TOOL_NAME && rule.pattern !== undefined && tool.kind === 'edit' && tool.ruleTarget?.kind === 'path';
}

/** Options of {@link RuleSet.match}. */
export interface RuleMatchOptions {
  /**
   * The workspace root; absolute paths inside it are matched relative to it.
   * @default undefined (paths are matched as given)
   */
  cwd?: string;
}

/** A session's permission rules: mutable, compiled once per rule, serializable for snapshots. */
export interface RuleSet {
  /**
   * Adds rules to a list; rules already present are skipped.
   * @throws ConfigurationError for a malformed rule (nothing is added then).
   */
  add(behavior: RuleBehavior, rules: readonly string[]): void;
  /**
   * The first rule of a list that matches a call, or `undefined`.
   * A bare `Tool` rule matches every call of the tool (`mcp__<server>` and `mcp__<server>__*`
   * every call of the server's tools); `Tool(pattern)` matches through the tool's
   * `ruleTarget` (never for a tool without one). A compound shell command meets a deny or ask rule
   * when any part does, and an allow rule only when every part is allowed and none hides a command
   * substitution or a file redirection. Deny and ask rules on `Read(pattern)` also match any
   * tool's call that reads a matching path (`ruleTarget.reads`: `cat .env` in Bash, Grep of a file),
   * and those on `Edit(pattern)` any call of a tool that edits a file by path (`kind: 'edit'`: `Write`);
   * those on `Edit(pattern)` and `Write(pattern)` also any call that writes a matching path
   * (`ruleTarget.writes`: `echo x > secrets/key`, `rm secrets/key` in Bash).
   */
  match(behavior: RuleBehavior, tool: RuleMatchTool, input: unknown, options?: RuleMatchOptions): string | undefined;
  /**
   * A rule of the list that cannot be checked against this call: a command pattern when the
   * command hides what it runs behind expansions (`$X`, `$(…)`, backticks) or cannot be parsed,
   * or a `Read(pattern)` rule when the call reads something that cannot be named in advance
   * (`cat *`, a recursive `grep -r`), or an `Edit(pattern)` / `Write(pattern)` rule when it writes
   * such a thing (`rm $F`, `… | xargs rm`), or a deny or ask rule with a pattern on a tool that
   * has no `ruleTarget` to match it against. The caller asks the host instead of trusting either
   * answer. `undefined` when there is none.
   */
  uncheckable(behavior: RuleBehavior, tool: RuleMatchTool, input: unknown, options?: RuleMatchOptions): string | undefined;
  /** The rules as plain strings, in the order they were added (for snapshots). */
  toJSON(): Required<PermissionRules>;
}

const BEHAVIORS: readonly RuleBehavior[] = ['allow', 'deny', 'ask'];

/** Matches allow rules against a command: every simple command must be allowed. */
function matchAllowedCommand(rules: readonly CompiledRule[], command: string): string | undefined {
  // Comments, expansions, escapes and groups could hide a second command: never vouch for them.
  if (!isPlainCommand(command)) return undefined;
  const segments = splitShellCommand(command);
  if (segments.length === 0 || segments.some((segment) => segment.opaque)) return undefined;
  let first: string | undefined;
  for (const segment of segments) {
    const rule = rules.find((candidate) => candidate.pattern !== undefined && matchesCommandSegment(candidate, segment.text));
    if (rule === undefined) return undefined;
    first ??= rule.rule;
  }
  return first;
}

/** What a call reads, once per decision when the pipeline's options carry its targets. */
function readTargetsFor(tool: RuleMatchTool, input: unknown, options: RuleMatchOptions | undefined) {
  const cache = callTargetsOf(options);
  return cache ? cache.reads(tool, input, () => readTargetsOf(tool, input)) : readTargetsOf(tool, input);
}

/** What a call writes, once per decision when the pipeline's options carry its targets. */
function writeTargetsFor(tool: RuleMatchTool, input: unknown, options: RuleMatchOptions | undefined) {
  const cache = callTargetsOf(options);
  return cache ? cache.writes(tool, input, () => writeTargetsOf(tool, input)) : writeTargetsOf(tool, input);
}

/** A compiled rule set (see {@link createRuleSet}): methods on a prototype, as one is made per agent. */
class CompiledRuleSet implements RuleSet {
  readonly #lists: Record<RuleBehavior, CompiledRule[]> = { allow: [], deny: [], ask: [] };

  add(behavior: RuleBehavior, added: readonly string[]): void {
    if (!BEHAVIORS.includes(behavior)) {
      throw new ConfigurationError(`Unknown rule list ${JSON.stringify(behavior)}; use "allow", "deny" or "ask".`);
    }
    if (!Array.isArray(added)) {
      throw new ConfigurationError(`rules.${behavior} must be an array of rule strings such as "Bash(npm test:*)".`);
    }
    const compiled = added.map(compileRule);
    const list = this.#lists[behavior];
    for (const rule of compiled) {
      if (!list.some((existing) => existing.rule === rule.rule)) list.push(rule);
    }
  }

  match(behavior: RuleBehavior, tool: RuleMatchTool, input: unknown, options?: RuleMatchOptions): string | undefined {
    const list = this.#lists[behavior];
    // Asked of every call, three times: an empty list (the common case) answers without allocating.
    if (list.length === 0) return undefined;
    if (behavior !== 'allow' && hasReadPathRule(list)) {
      const targets = readTargetsFor(tool, input, options);
      const readRule = targets && matchReadPaths(list, targets, behavior, options?.cwd);
      if (readRule !== undefined) return readRule;
    }
    if (behavior !== 'allow' && hasWritePathRule(list)) {
      const targets = writeTargetsFor(tool, input, options);
      const writeRule = targets && matchWritePaths(list, targets, behavior, options?.cwd);
      if (writeRule !== undefined) return writeRule;
    }
    const candidates = list.filter((rule) => ruleApplies(rule, tool, behavior));
    if (candidates.length === 0) return undefined;
    for (const rule of candidates) {
      if (rule.pattern === undefined || matchesTarget(rule, tool.ruleTarget, input, behavior, options?.cwd)) return rule.rule;
    }
    const target = tool.ruleTarget;
    if (behavior === 'allow' && target?.kind === 'command' && typeof input === 'object' && input !== null) {
      const command = (input as Record<string, unknown>)[target.field];
      if (typeof command === 'string') return matchAllowedCommand(candidates, command);
    }
    return undefined;
  }

  uncheckable(behavior: RuleBehavior, tool: RuleMatchTool, input: unknown, options?: RuleMatchOptions): string | undefined {
    const list = this.#lists[behavior];
    if (list.length === 0) return undefined;
    if (behavior !== 'allow' && hasReadPathRule(list)) {
      const targets = readTargetsFor(tool, input, options);
      const readRule = targets && uncheckableRead(list, targets, options?.cwd);
      if (readRule !== undefined) return readRule;
    }
    if (behavior !== 'allow' && hasWritePathRule(list)) {
      const targets = writeTargetsFor(tool, input, options);
      const writeRule = targets && uncheckableWrite(list, targets, options?.cwd);
      if (writeRule !== undefined) return writeRule;
    }
    const target = tool.ruleTarget;
    // A pattern on a tool with nothing to match it against (no `ruleTarget`: a tool of the host's
    // own, an MCP tool) would never match: a deny or ask rule written for it is asked instead of
    // letting every call through as if it were not there.
    if (target === undefined) {
      if (behavior === 'allow') return undefined;
      return list.find((rule) => rule.pattern !== undefined && ruleNamesTool(rule.toolName, tool.name))?.rule;
    }
    if (target.kind !== 'command' || typeof input !== 'object' || input === null) return undefined;
    const command = (input as Record<string, unknown>)[target.field];
    if (typeof command !== 'string') return undefined;
    const rules = list.filter((rule) => ruleNamesTool(rule.toolName, tool.name) && rule.pattern !== undefined);
    if (rules.length === 0) return undefined;
    // Fails closed: a line the shell parser cannot read cannot be checked either.
    if (hidesCommands(command) || parseShellCommand(command).error !== undefined) return rules[0]!.rule;
    // An alias (`alias g=git`, `git -c alias.p=push p`) runs a command under a name no rule knows.
    if (renamesCommands(command) !== undefined) return rules[0]!.rule;
    const expanded = expandedCommands(command);
    // A shell fed its script through its input (`echo … | base64 -d | sh`) runs what no rule can see.
    if (expanded.some((simple) => simple.readsCommandsFromInput)) return rules[0]!.rule;
    // A file-name pattern where a command stands (`cur[l] x`, `sudo /usr/bin/cur? x`) may turn into the rule's command.
    const patterns = expanded.flatMap((simple) => simple.commandPatterns);
    if (patterns.length === 0) return undefined;
    return rules.find((rule) => {
      const name = ruleCommandWords(rule)[0];
      return name !== undefined && patterns.some((pattern) => patternMaySpell(pattern, name));
    })?.rule;
  }

  toJSON(): Record<RuleBehavior, string[]> {
    return {
      allow: this.#lists.allow.map((rule) => rule.rule),
      deny: this.#lists.deny.map((rule) => rule.rule),
      ask: this.#lists.ask.map((rule) => rule.rule),
    };
  }
}

/**
 * Creates a session rule set from the `rules` option.
 * @throws ConfigurationError for a malformed rule, naming it and the right form.
 * @example
 * const rules = createRuleSet({ allow: ['Bash(npm test:*)'], deny: ['Edit(secrets/**)'] });
 * rules.match('allow', bash, { command: 'npm test -- --watch' }); // 'Bash(npm test:*)'
 */
export function createRuleSet(rules: PermissionRules = {}): RuleSet {
  const ruleSet = new CompiledRuleSet();

  if (typeof rules !== 'object' || rules === null) {
    throw new ConfigurationError(`rules must be an object { allow?, deny?, ask? } of rule string arrays.`);
  }
  for (const key of Object.keys(rules)) {
    if (!(BEHAVIORS as readonly string[]).includes(key)) {
      throw new ConfigurationError(`rules.${key} is not a rule list; use allow, deny or ask, e.g. { allow: ['Bash(npm test:*)'] }.`);
    }
  }
  for (const behavior of BEHAVIORS) {
    const added = rules[behavior];
    if (added !== undefined) ruleSet.add(behavior, added);
  }
  return ruleSet;
}
