import { ConfigurationError } from '../errors/configuration-error.js';
import type { PendingApproval } from '../types/pending-approval.js';
import type { SessionEntry } from '../state/entries.js';

/**
 * The version of the rule below. Bump it whenever an entry kind starts or stops opening or
 * closing approvals: stores keep folded states (a database row, a Redis hash), and refold a
 * session from its transcript when its saved state was made by another version of the rule.
 */
export const PENDING_APPROVALS_RULE = 1;

/**
 * A session's unanswered approvals, folded from its transcript entry by entry. Plain JSON, so a
 * store can save it beside the session and fold only the new entries on each append.
 */
export interface PendingApprovalsState {
  /** The {@link PENDING_APPROVALS_RULE} that made this state. */
  rule: number;
  /** Unanswered approvals, in the order they were asked. */
  approvals: PendingApproval[];
}

type Approvals = readonly PendingApproval[];
type Step<K extends SessionEntry['kind']> = (approvals: Approvals, entry: Extract<SessionEntry, { kind: K }>) => Approvals;

const without = (approvals: Approvals, gone: (approval: PendingApproval) => boolean): Approvals =>
  approvals.some(gone) ? approvals.filter((approval) => !gone(approval)) : approvals;

/**
 * What each entry kind does to the open approvals; kinds not listed leave them alone. A step
 * returns its input unchanged when nothing changes, so a fold can tell cheaply.
 */
const steps: { [K in SessionEntry['kind']]?: Step<K> } = {
  // A call parked for the host; asked again (same id) it moves to the end.
  'approval-pending': (approvals, entry) => [...without(approvals, (approval) => approval.id === entry.approval.id), entry.approval],
  'approval-resolved': (approvals, entry) => without(approvals, (approval) => approval.id === entry.approvalId),
  // The call was answered some other way (refused, interrupted, run after an allow).
  'tool-result': (approvals, entry) => without(approvals, (approval) => approval.toolUseId === entry.toolUseId),
  // A user message closes the agent's open batch: what it still waited on is no longer asked.
  // A subagent's messages (entries with its agentId) close only its own approvals.
  message: (approvals, entry) => (entry.message.role === 'user' ? without(approvals, (approval) => approval.agentId === entry.agentId) : approvals),
};

function step(approvals: Approvals, entry: SessionEntry): Approvals {
  const apply = steps[entry.kind] as Step<SessionEntry['kind']> | undefined;
  return apply === undefined ? approvals : apply(approvals, entry);
}

/** The state of a session with no entries. */
export function emptyPendingApprovals(): PendingApprovalsState {
  return { rule: PENDING_APPROVALS_RULE, approvals: [] };
}

/**
 * True when `value` is a state this build's rule made, so folding can continue from it; a
 * store refolds the whole transcript otherwise.
 */
export function isCurrentPendingApprovals(value: unknown): value is PendingApprovalsState {
  if (typeof value !== 'object' || value === null) return false;
  const { rule, approvals } = value as Partial<PendingApprovalsState>;
  return (
    rule === PENDING_APPROVALS_RULE &&
    Array.isArray(approvals) &&
    approvals.every((approval) => typeof approval === 'object' && approval !== null && typeof approval.id === 'string' && typeof approval.toolUseId === 'string')
  );
}

/**
 * Folds transcript entries into a session's pending approvals: `approval-pending` opens one,
 * `approval-resolved` closes it by id, a `tool-result` closes the one for that call, and a user
 * `message` closes the rest of its agent's batch. Pure; the one place this rule lives, used by
 * every store's `listPending()`.
 * @param state The state before `entries` (`undefined` for a session with no entries before them).
 * @returns `state` itself when no entry changed it, else a new state.
 * @throws ConfigurationError when `state` was made by another version of the rule (check with
 * {@link isCurrentPendingApprovals} and refold from the start instead).
 * @example
 * let pending = foldPendingApprovals(undefined, firstEntries);
 * pending = foldPendingApprovals(pending, laterEntries); // same result as folding all at once
 */
export function foldPendingApprovals(state: PendingApprovalsState | undefined, entries: Iterable<SessionEntry>): PendingApprovalsState {
  const start = state ?? emptyPendingApprovals();
  if (start.rule !== PENDING_APPROVALS_RULE) {
    throw new ConfigurationError(`Cannot continue a pending-approvals state made by rule ${String(start.rule)} with rule ${PENDING_APPROVALS_RULE}: fold the session's entries from the start.`);
  }
  let approvals: Approvals = start.approvals;
  for (const entry of entries) approvals = step(approvals, entry);
  return approvals === start.approvals ? start : { rule: PENDING_APPROVALS_RULE, approvals: [...approvals] };
}
