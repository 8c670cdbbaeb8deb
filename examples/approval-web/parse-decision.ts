/**
 * Turns the page's answer to an approval into a decision for `agent.resolveApproval`, accepting
 * only the permission updates the server offered: the approval's own suggestions, or for a plan,
 * the mode to carry it out in.
 */
import type { ApprovalDecision, PendingApproval, PermissionUpdate } from 'agent-harness';

/** Modes a plan may be carried out in, from the plan card. */
export const EXECUTION_MODES = ['default', 'acceptEdits'] as const;

/** The offered update the client sent back, rebuilt from what the server offered; undefined when it was not offered. */
function offered(update: unknown, approval: PendingApproval): PermissionUpdate | undefined {
  const json = JSON.stringify(update);
  const suggestion = approval.suggestions.find((candidate) => JSON.stringify(candidate) === json);
  if (suggestion) return suggestion;
  if (approval.reason.type !== 'plan-approval' || typeof update !== 'object' || update === null) return undefined;
  // Exactly the three fields of the plan card's mode: an extra field (rules, behavior) is not what was offered.
  const { type, mode, destination, ...rest } = update as Record<string, unknown>;
  if (type !== 'setMode' || destination !== 'session' || Object.keys(rest).length > 0) return undefined;
  const execution = EXECUTION_MODES.find((candidate) => candidate === mode);
  return execution ? { type: 'setMode', mode: execution, destination: 'session' } : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with an edited input, if anything: an object, and for a plan, the same input with only its text changed. */
function inputProblem(updatedInput: unknown, approval: PendingApproval): string | undefined {
  if (!isObject(updatedInput)) return '`updatedInput` must be the tool\'s input object, edited.';
  if (approval.reason.type !== 'plan-approval') return undefined;
  const { plan, ...rest } = updatedInput;
  const { plan: _original, ...originalRest } = approval.input as Record<string, unknown>;
  if (typeof plan !== 'string' || plan.trim() === '' || JSON.stringify(rest) !== JSON.stringify(originalRest)) {
    return '`updatedInput` of a plan may only change its `plan` text (a non-empty string).';
  }
  return undefined;
}

/** The decision, or a message saying what is wrong with the request body. */
export function parseDecision(body: unknown, approval: PendingApproval): ApprovalDecision | { problem: string } {
  if (!isObject(body)) return { problem: 'Send a JSON object, e.g. { "behavior": "allow" }.' };
  const { behavior, message, updatedInput, updatedPermissions, clearContext } = body;
  if (behavior === 'deny') {
    if (typeof message !== 'string' || message.trim() === '') return { problem: 'A denial needs a `message` for the model.' };
    return { behavior: 'deny', message };
  }
  if (behavior !== 'allow') return { problem: '`behavior` must be "allow" or "deny".' };
  let permissions: PermissionUpdate[] | undefined;
  if (updatedPermissions !== undefined) {
    permissions = Array.isArray(updatedPermissions) ? updatedPermissions.map((update) => offered(update, approval)).filter((update) => update !== undefined) : [];
    if (!Array.isArray(updatedPermissions) || permissions.length !== updatedPermissions.length) {
      return { problem: '`updatedPermissions` may only hold the suggestions offered with this approval.' };
    }
  }
  const problem = updatedInput === undefined ? undefined : inputProblem(updatedInput, approval);
  if (problem) return { problem };
  if (clearContext !== undefined && (clearContext !== true || approval.reason.type !== 'plan-approval')) {
    return { problem: '`clearContext` may only be `true`, and only when approving a plan.' };
  }
  return {
    behavior: 'allow',
    ...(clearContext === true ? { clearContext: true } : {}),
    ...(isObject(updatedInput) ? { updatedInput } : {}),
    ...(permissions !== undefined ? { updatedPermissions: permissions } : {}),
  };
}
