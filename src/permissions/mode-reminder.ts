import type { PermissionMode } from '../types/permission.js';
import { checkOptions, isString, type OptionsSpec } from '../options/index.js';

/**
 * The plan-mode instructions used when the host gives none. Domain-neutral on purpose: they fit
 * a writing agent as well as a coding one.
 */
export const DEFAULT_PLAN_MODE_INSTRUCTIONS = [
  'Plan mode is active. You are planning: do not change anything yet.',
  'Only read-only tools run now; any other tool call is refused.',
  '1. Explore with read-only tools until you understand the task and its context.',
  '2. Consider the options and their trade-offs.',
  '3. If a requirement is unclear, ask the user instead of guessing (with the AskUserQuestion tool when you have it).',
  '4. When the plan is ready, present it with the ExitPlanMode tool ({ plan }). The user approves it or tells you what to change; once approved, you carry it out.',
].join('\n');

/**
 * The message a non-read-only call gets in plan mode when the host gives none.
 */
export const DEFAULT_PLAN_MODE_DENY_MESSAGE =
  'This call was not run because plan mode is active: you are planning and must not change anything yet. Keep exploring with read-only tools, and present your plan with the ExitPlanMode tool when it is ready.';

const REMINDERS: Record<Exclude<PermissionMode, 'plan'>, string> = {
  default: 'Permission mode is now "default": read-only tools run; other tool calls may need the user\'s approval.',
  acceptEdits:
    'Permission mode is now "acceptEdits": edits inside the workspace are approved automatically; other tool calls may still need the user\'s approval.',
  auto: 'Permission mode is now "auto": an automatic reviewer approves or refuses tool calls that would need approval; some may still be asked to the user.',
  dontAsk:
    'Permission mode is now "dontAsk": tool calls that would need approval are refused without asking; work with what is already allowed.',
  bypassPermissions:
    'Permission mode is now "bypassPermissions": tool calls run without asking, except where a rule or hook says otherwise.',
};

/** Options of {@link modeReminder}. */
export interface ModeReminderOptions {
  /**
   * Replaces the plan-mode instructions.
   * @default DEFAULT_PLAN_MODE_INSTRUCTIONS
   */
  planModeInstructions?: string;
}

const OPTIONS: OptionsSpec<ModeReminderOptions> = { planModeInstructions: isString };

/**
 * The short text the loop appends to the history when the mode changes (the system prompt and
 * tool list never change). For `plan`, the plan-mode instructions.
 * @example
 * modeReminder('plan', { planModeInstructions: 'Outline the article; do not write it yet.' });
 */
export function modeReminder(mode: PermissionMode, options: ModeReminderOptions = {}): string {
  checkOptions<ModeReminderOptions>(options, OPTIONS, { owner: 'modeReminder', optional: true });
  if (mode === 'plan') return options.planModeInstructions ?? DEFAULT_PLAN_MODE_INSTRUCTIONS;
  return REMINDERS[mode];
}
