import type { HookEventName } from './types.js';

/** Every hook event, in the order they happen in a session. */
export const HOOK_EVENT_NAMES: readonly HookEventName[] = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'PreCompact',
  'PostCompact',
  'SubagentStart',
  'SubagentStop',
  'SessionEnd',
];

/** The hook events about one tool call; only these take a `matcher`. */
export const TOOL_HOOK_EVENT_NAMES: readonly HookEventName[] = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
];

/** Whether `name` is a tool event (its hooks take a `matcher`). */
export function isToolHookEvent(name: HookEventName): boolean {
  return TOOL_HOOK_EVENT_NAMES.includes(name);
}
