import type { RuleBehavior } from '../permissions/compile-rule.js';
import type { RuleMatchOptions, RuleMatchTool, RuleSet } from '../permissions/rule-set.js';
import type { PermissionRules } from '../types/permission.js';

/**
 * An agent's rules as one object that stays the same while the rules change: a decision that
 * holds it across an `await` (the host's `canUseTool`, a hook) and checks the deny rules again at
 * its end sees a deny added in between. It compiles the rules when their revision moved (the
 * agent's own session rules, or for a subagent a parent's), and takes a change of the agent's own
 * in place when it can.
 */
export class LiveRuleSet implements RuleSet {
  #current: RuleSet | undefined;
  #compiledAt = -1;
  readonly #compile: () => RuleSet;
  readonly #revision: () => number;

  constructor(compile: () => RuleSet, revision: () => number) {
    this.#compile = compile;
    this.#revision = revision;
  }

  /** The compiled rules as they are now. @throws ConfigurationError for a malformed rule. */
  get current(): RuleSet {
    const revision = this.#revision();
    if (this.#current === undefined || revision !== this.#compiledAt) {
      this.#current = this.#compile();
      this.#compiledAt = revision;
    }
    return this.#current;
  }

  /** Compiles again at the next use (what the rules are made from changed). */
  invalidate(): void {
    this.#current = undefined;
  }

  /**
   * A change of the agent's own rules moved the revision from `before` to `after`: `apply` makes
   * the same change to the compiled rules when they were current (else they compile at next use).
   */
  changed(before: number, after: number, apply?: (rules: RuleSet) => void): void {
    if (apply !== undefined && this.#current !== undefined && this.#compiledAt === before) {
      apply(this.#current);
      this.#compiledAt = after;
    }
  }

  /** Adds to the compiled rules only, until they compile again: record rule changes through the agent's permission updates. */
  add(behavior: RuleBehavior, rules: readonly string[]): void {
    this.current.add(behavior, rules);
  }

  match(behavior: RuleBehavior, tool: RuleMatchTool, input: unknown, options?: RuleMatchOptions): string | undefined {
    return this.current.match(behavior, tool, input, options);
  }

  uncheckable(behavior: RuleBehavior, tool: RuleMatchTool, input: unknown, options?: RuleMatchOptions): string | undefined {
    return this.current.uncheckable(behavior, tool, input, options);
  }

  toJSON(): Required<PermissionRules> {
    return this.current.toJSON();
  }
}
