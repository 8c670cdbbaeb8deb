import { ConfigurationError } from '../errors/configuration-error.js';
import type { ApprovalDecision } from './apply-approval-decision.js';
import { describeJson } from '../options/describe-json.js';
import { describeOptionValue } from '../errors/describe-option-value.js';

/**
 * Checks the host's answer to an approval before anything is applied, so a malformed answer (a
 * host's bug, not the user's choice) leaves the approval pending instead of using it up: the
 * behavior, a denial's message, the flags' types, and an edited input that is an object (a tool's
 * input always is; its fields are checked against the tool's schema when it is applied).
 * @param where - who was given it, to start the message (`resolveApproval`, `enqueueApproval`).
 * @throws ConfigurationError naming the bad field, the value and the fix.
 */
export function checkApprovalDecision(decision: unknown, where: string): asserts decision is ApprovalDecision {
  const given = decision as { behavior?: unknown; message?: unknown; interrupt?: unknown; clearContext?: unknown; updatedInput?: unknown } | null | undefined;
  if (given?.behavior !== 'allow' && given?.behavior !== 'deny') {
    throw new ConfigurationError(`${where}: decision.behavior must be "allow" or "deny", got ${describeJson(given?.behavior)}.`);
  }
  if (given.behavior === 'deny' && typeof given.message !== 'string') {
    throw new ConfigurationError(`${where}: a denial needs a \`message\` for the model, e.g. { behavior: "deny", message: "The user declined." }.`);
  }
  for (const flag of ['interrupt', 'clearContext'] as const) {
    const value = given[flag];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new ConfigurationError(`${where}: decision.${flag} must be true or false, got ${describeJson(value)}; nothing was applied and the approval is still pending.`);
    }
  }
  const input = given.updatedInput;
  if (given.behavior === 'allow' && input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw new ConfigurationError(
      `${where}: decision.updatedInput must be the tool's input object (e.g. { ...approval.input, field: 'new value' }) or left out, got ${input === null ? 'null' : Array.isArray(input) ? 'an array' : describeOptionValue(input)}; nothing was applied and the approval is still pending.`,
    );
  }
}
