export type * from './types.js';
export { HOOK_EVENT_NAMES, TOOL_HOOK_EVENT_NAMES, isToolHookEvent } from './hook-event-names.js';
export { validateHooksConfig } from './validate-hooks-config.js';
export { runHooks, DEFAULT_HOOK_TIMEOUT_MS, type RunHooksOptions, type RunHooksResult } from './run-hooks.js';
export { composePreToolUse, type ComposedPreToolUse } from './compose-pre-tool-use.js';
export { composePermissionRequest, type ComposedPermissionRequest } from './compose-permission-request.js';
