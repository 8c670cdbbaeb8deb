import type { HookEventName, HooksConfig } from './types.js';

/**
 * Whether any hook is registered for `event`: the loop asks before building a hook's input, so
 * an agent without hooks makes no input object, result or await per call and per run.
 */
export function hasHooks(hooks: HooksConfig | undefined, event: HookEventName): boolean {
  return (hooks?.[event]?.length ?? 0) > 0;
}
