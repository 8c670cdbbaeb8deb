/**
 * Turns the page's answer to an approval into a decision for `agent.resolveApproval`, accepting
 * only the permission updates the server offered: the approval's own suggestions, or for a plan,
 * the mode to carry it out in.
 */
import type { ApprovalDecision, PendingApproval, PermissionUpdate } from 'agent-harness';

/** Modes a plan may be carried out in, from the plan card. */
export const EXECUTION_MODES = ['default', 'acceptEdits'] as const;

function isOffered(update: unknown, approval: PendingApproval): update is PermissionUpdate {
  const json = JSON.stringify(update);
  if (approval.suggestions.some((suggestion) => JSON.stringify(suggestion) === json)) return true;
  if (approval.reason.type !== 'plan-approval') return false;
  const mode = update as { type?: unknown; mode?: unknown; destination?: unknown };
  return mode.type === 'setMode' && mode.destination === 'session' && (EXECUTION_MODES as readonly unknown[]).includes(mode.mode);
}

/** The decision, or a message saying what is wrong with the request body. */
export function parseDecision(body: unknown, approval: PendingApproval): ApprovalDecision | { problem: string } {
  const { behavior, message, updatedInput, updatedPermissions, clearContext } = (body ?? {}) as Record<string, unknown>;
  if (behavior === 'deny') {
    if (typeof message !== 'string' || message.trim() === '') return { problem: 'A denial needs a `message` for the model.' };
    return { behavior: 'deny', message };
  }
  if (behavior !== 'allow') return { problem: '`behavior` must be "allow" or "deny".' };
  if (updatedPermissions !== undefined) {
    if (!Array.isArray(updatedPermissions) || !updatedPermissions.every((update) => isOffered(update, approval))) {
      return { problem: '`updatedPermissions` may only hold the suggestions offered with this approval.' };
    }
  }
  if (clearContext !== undefined && (clearContext !== true || approval.reason.type !== 'plan-approval')) {
    return { problem: '`clearContext` may only be `true`, and only when approving a plan.' };
  }
  return {
    behavior: 'allow',
    ...(clearContext === true ? { clearContext: true } : {}),
    ...(updatedInput !== undefined ? { updatedInput } : {}),
    ...(updatedPermissions !== undefined ? { updatedPermissions: updatedPermissions as PermissionUpdate[] } : {}),
  };
}
