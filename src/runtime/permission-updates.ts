import { ConfigurationError } from '../errors/configuration-error.js';
import type { RuleBehavior } from '../permissions/compile-rule.js';
import { parsePermissionUpdates } from '../permissions/parse-permission-updates.js';
import { createRuleSet } from '../permissions/rule-set.js';
import type { PermissionUpdate } from '../types/permission.js';
import type { AgentCore } from './agent-core.js';

// How an agent's session takes permission updates: the host's (canUseTool, resolveApproval,
// addRules…) and those a decision records. The AgentCore methods of the same names call these.

/** The permission updates that change rules. */
type RuleUpdateType = 'addRules' | 'replaceRules' | 'removeRules';

/** The rules in their first order, each once. */
function unique(rules: readonly string[]): string[] {
  return rules.filter((rule, index) => rules.indexOf(rule) === index);
}

/**
 * Applies permission updates (from `canUseTool`, a resolved approval, or the host) to the
 * session, each recorded in the transcript; updates for the `host` destination are also
 * announced (`permission-update`) for the host to keep beyond the session.
 * @throws ConfigurationError for a malformed update or rule (nothing is applied then; see {@link checkPermissionUpdates}).
 */
export function applyPermissionUpdates(core: AgentCore, updates: unknown): void {
  applyCheckedPermissionUpdates(core, checkPermissionUpdates(core, updates));
}

/**
 * Applies updates {@link checkPermissionUpdates} returned (the plain copies a decision records),
 * without checking them again, recorded in one append: a crash keeps all of them or none (an
 * allow rule never without the deny rule given with it).
 */
export function applyCheckedPermissionUpdates(core: AgentCore, updates: readonly PermissionUpdate[] | undefined): void {
  if (!updates?.length) return;
  core.inOneWrite(() => applyEachUpdate(core, updates));
}

function applyEachUpdate(core: AgentCore, updates: readonly PermissionUpdate[]): void {
  for (const update of updates) {
    switch (update.type) {
      case 'addRules':
      case 'replaceRules':
      case 'removeRules':
        changeSessionRules(core, update.type, update.behavior, update.rules as string[]);
        break;
      case 'setMode':
        core.setMode(update.mode, 'permission-update');
        break;
      case 'addDirectories':
      case 'removeDirectories':
        core.commit({ kind: 'directories-changed', operation: update.type === 'addDirectories' ? 'add' : 'remove', directories: [...update.directories] });
        break;
    }
    if (update.destination === 'host') core.emit({ type: 'permission-update', update });
  }
}

/**
 * Checks permission updates whole, applying none: a host's answer with one bad update changes
 * nothing. Returns plain copies (the known fields, rules as strings) to record and apply.
 * A rule to add must also name a tool of this agent or of one above it.
 * @throws ConfigurationError naming the bad update and the fix.
 */
export function checkPermissionUpdates(core: AgentCore, updates: unknown): PermissionUpdate[] | undefined {
  return parsePermissionUpdates(updates, {
    checkRule: (behavior, rule) => {
      if (!takesRule(core, behavior, rule)) checkRules(core, behavior, [rule]);
    },
    assertModeAllowed: (mode) => {
      if (mode === 'bypassPermissions') core.assertBypassAllowed();
    },
  });
}

/**
 * Adds, replaces or removes session rules. A subagent's change is the session's: each rule goes
 * to the highest agent above it that has the tool it names (recorded there, and inherited from
 * there by every subagent), and stays the subagent's own only when no agent above has that tool.
 * @throws ConfigurationError for a malformed rule, or one naming a tool neither this agent nor one above it has (nothing is changed then).
 */
function changeSessionRules(core: AgentCore, type: RuleUpdateType, behavior: RuleBehavior, rules: readonly string[]): void {
  const parent = core.sessionParent;
  if (parent === undefined) return changeRules(core, type, behavior, rules);
  const above = rules.filter((rule) => takesRule(parent, behavior, rule));
  const own = rules.filter((rule) => !above.includes(rule));
  if (type !== 'removeRules') checkRules(core, behavior, own);
  if (type !== 'addRules' || above.length > 0) changeSessionRules(parent, type, behavior, type === 'removeRules' ? rules : above);
  if (type === 'removeRules') changeRules(core, type, behavior, rules);
  else if (type === 'replaceRules' || own.length > 0) changeRules(core, type, behavior, own);
}

/** Whether this agent or one above it has the tool `rule` names. */
function takesRule(core: AgentCore, behavior: RuleBehavior, rule: string): boolean {
  try {
    checkRules(core, behavior, [rule]);
    return true;
  } catch (error) {
    if (!ConfigurationError.isInstance(error)) throw error;
  }
  return core.sessionParent ? takesRule(core.sessionParent, behavior, rule) : false;
}

/** @throws ConfigurationError for a malformed rule or one naming a tool this agent lacks. */
function checkRules(core: AgentCore, behavior: RuleBehavior, rules: readonly string[]): void {
  core.assertRulesNameTools({ [behavior]: rules });
  createRuleSet({ [behavior]: rules });
}

/** Changes this agent's own session rules, recording the change (nothing when it changes nothing). */
function changeRules(core: AgentCore, type: RuleUpdateType, behavior: RuleBehavior, rules: readonly string[]): void {
  const present = core.state.sessionRules[behavior];
  const before = core.rulesRevision;
  if (type === 'addRules') {
    checkRules(core, behavior, rules);
    const fresh = unique(rules).filter((rule) => !present.includes(rule));
    if (fresh.length === 0) return;
    core.commit({ kind: 'rules-added', behavior, rules: fresh });
    core.bumpRulesRevision();
    core.rules.changed(before, core.rulesRevision, (compiled) => compiled.add(behavior, fresh));
    return;
  }
  if (type === 'replaceRules') {
    checkRules(core, behavior, rules);
    const replacement = unique(rules);
    if (replacement.length === present.length && replacement.every((rule, index) => rule === present[index])) return;
    core.commit({ kind: 'rules-changed', behavior, operation: 'replace', rules: replacement });
  } else {
    if (!rules.some((rule) => present.includes(rule))) return;
    core.commit({ kind: 'rules-changed', behavior, operation: 'remove', rules: [...rules] });
  }
  core.bumpRulesRevision();
}
