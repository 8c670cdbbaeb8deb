export * from '../types/permission.js';
export type { PendingApproval } from '../types/pending-approval.js';
export { parseRule, formatRule, type ParsedRule } from './parse-rule.js';
export { createRuleSet, type RuleSet, type RuleMatchOptions, type RuleMatchTool } from './rule-set.js';
export type { RuleBehavior } from './compile-rule.js';
export { compileGlob, type CompileGlobOptions, type GlobMatcher } from './compile-glob.js';
export { splitShellCommand, type ShellCommandSegment } from './split-shell-command.js';
export { readRuleMatcher } from './read-rules.js';
export { suggestPermissionUpdates, type SuggestPermissionUpdatesOptions } from './suggest-permission-updates.js';
export { describePermissionUpdate, type DescribePermissionUpdateOptions } from './describe-permission-update.js';
export { isReadOnlyCall } from './is-read-only-call.js';
export { assertPermissionMode } from './assert-permission-mode.js';
export {
  modeReminder,
  DEFAULT_PLAN_MODE_INSTRUCTIONS,
  DEFAULT_PLAN_MODE_DENY_MESSAGE,
  type ModeReminderOptions,
} from './mode-reminder.js';
export { decidePermission, PERMISSION_STEPS } from './decide-permission.js';
export type { DecidePermissionArgs, PermissionOutcome, PermissionEventDraft } from './decide-permission-types.js';
