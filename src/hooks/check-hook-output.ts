import type { HookEventName } from './types.js';
import { describeJson } from '../options/describe-json.js';

const DECISIONS: Partial<Record<HookEventName, readonly string[]>> = {
  PreToolUse: ['allow', 'deny', 'ask', 'defer'],
  PermissionRequest: ['allow', 'deny'],
};

/**
 * Checks the shape of what a hook returned. Returns the problem as a sentence, or `undefined`
 * when the output is usable. `undefined`/`null` (no opinion) is fine.
 */
export function checkHookOutput(event: HookEventName, output: unknown): string | undefined {
  if (output === undefined || output === null) return undefined;
  if (typeof output !== 'object' || Array.isArray(output)) {
    return `returned ${Array.isArray(output) ? 'an array' : typeof output}; a hook returns an object (or nothing)`;
  }
  const allowed = DECISIONS[event];
  const decision = (output as { decision?: unknown }).decision;
  if (allowed !== undefined && decision !== undefined && !allowed.includes(decision as string)) {
    return `returned decision ${describeJson(decision)}; a ${event} hook's decision is one of ${allowed.map((value) => `"${value}"`).join(', ')}`;
  }
  return undefined;
}
