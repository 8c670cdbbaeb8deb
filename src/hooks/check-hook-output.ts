import type { HookEventName } from './types.js';
import { describeJson } from '../options/describe-json.js';
import { HOOK_OUTPUT_FIELDS } from './hook-output-fields.js';

const DECISIONS: Partial<Record<HookEventName, readonly string[]>> = {
  PreToolUse: ['allow', 'deny', 'ask', 'defer'],
  PermissionRequest: ['allow', 'deny'],
};

/**
 * How an event's own fields answer what a Claude Agent SDK hook wrote as `hookSpecificOutput` or
 * as a `decision` the event does not take (`'block'`): a ported hook whose answer were read as
 * "no opinion" would drop its policy silently (a deny that lets the call run).
 */
const PLAIN_FORMS: Partial<Record<HookEventName, string>> = {
  PreToolUse: "{ decision: 'deny', reason } (or 'allow', 'ask', 'defer')",
  PermissionRequest: "{ decision: 'allow' } or { decision: 'deny', message }",
  UserPromptSubmit: '{ block: true, reason }',
  Stop: '{ continue: true, reason } to send the model back',
};

/** Output fields that are text wherever an event has them. */
const TEXT_FIELDS = ['additionalContext', 'reason', 'instructions', 'message'] as const;
/** Output fields that are flags wherever an event has them. */
const FLAG_FIELDS = ['block', 'continue'] as const;

/**
 * Checks the shape of what a hook returned: an object (or nothing), its text fields strings, its
 * flags booleans, its decision one of the event's. Returns the problem as a sentence, or `undefined`
 * when the output is usable. `undefined`/`null` (no opinion) is fine.
 */
export function checkHookOutput(event: HookEventName, output: unknown): string | undefined {
  if (output === undefined || output === null) return undefined;
  if (typeof output !== 'object' || Array.isArray(output)) {
    return `returned ${Array.isArray(output) ? 'an array' : typeof output}; a hook returns an object (or nothing)`;
  }
  if ((output as Record<string, unknown>).hookSpecificOutput !== undefined) {
    return `returned hookSpecificOutput, the Claude Agent SDK's shape; a ${event} hook returns its answer as plain fields: ${PLAIN_FORMS[event] ?? `{ ${HOOK_OUTPUT_FIELDS[event].join(', ') || 'nothing'} }`}`;
  }
  for (const field of TEXT_FIELDS) {
    const value = (output as Record<string, unknown>)[field];
    if (value !== undefined && value !== null && typeof value !== 'string') return `returned ${field} ${describeJson(value)}; a hook's ${field} is a string`;
  }
  for (const field of FLAG_FIELDS) {
    const value = (output as Record<string, unknown>)[field];
    if (value !== undefined && typeof value !== 'boolean') return `returned ${field} ${describeJson(value)}; a hook's ${field} is true or false`;
  }
  if (event !== 'Stop' && (output as { continue?: unknown }).continue === false) {
    // The Claude Agent SDK's way to stop the agent from any hook; read as no opinion, the call would run.
    return `returned continue: false, which only a Stop hook reads (there it means no opinion); to stop here, ${event === 'PreToolUse' ? "deny the call ({ decision: 'deny', reason }) and " : ''}call agent.interrupt()`;
  }
  const allowed = DECISIONS[event];
  const decision = (output as { decision?: unknown }).decision;
  if (allowed === undefined && decision !== undefined) {
    return `returned decision ${describeJson(decision)}, which a ${event} hook does not take${PLAIN_FORMS[event] ? `; return ${PLAIN_FORMS[event]}` : ''}`;
  }
  if (allowed !== undefined && decision !== undefined && !allowed.includes(decision as string)) {
    return `returned decision ${describeJson(decision)}; a ${event} hook's decision is one of ${allowed.map((value) => `"${value}"`).join(', ')}`;
  }
  return undefined;
}
