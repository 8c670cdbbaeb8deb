import { ConfigurationError } from '../errors/configuration-error.js';
import type { ToolUseBlock } from '../model/messages.js';
import { pendingApprovalsOf } from '../state/batch.js';
import type { SessionEntry } from '../state/entries.js';
import type { SessionState } from '../state/session-state.js';
import type { PendingApproval } from '../types/pending-approval.js';

/**
 * The version of the rule below. Bump it whenever an entry kind starts or stops opening or
 * closing approvals: stores keep folded states (a database row, a Redis hash), and fold a
 * session again from its transcript when its saved state was made by another version.
 */
export const PENDING_APPROVALS_RULE = 1;

/** One call of the open batch, with what it waits on. */
export interface PendingCall {
  /** The call's `tool_use` id. */
  toolUseId: string;
  /** Its approval (a deferred call), those inside the nested run it waits on (a suspended call), or none. */
  approvals: PendingApproval[];
}

/**
 * A session's unanswered approvals, folded from its transcript entry by entry: the calls of the
 * open batch (in `tool_use` order) with what each waits on. Plain JSON, small (no messages, no
 * results), so a store saves it beside the session and folds only new entries on each append.
 */
export interface PendingApprovalsState {
  /** The {@link PENDING_APPROVALS_RULE} that made this state. */
  rule: number;
  /**
   * Whose entries count: the first entry's `agentId` (null for none); entries of other agents
   * (subagent sidechains) are passed over, as `foldEntries` does. Unset before the first entry.
   */
  agentId?: string | null;
  /** The role of the last message, for an assistant message that continues the one before. */
  lastRole?: 'user' | 'assistant';
  /** The open batch's calls; empty when no batch is open. */
  calls: PendingCall[];
}

type Step<K extends SessionEntry['kind']> = (state: PendingApprovalsState, entry: Extract<SessionEntry, { kind: K }>) => PendingApprovalsState;

/** The state with one call's approvals replaced; the same state when the call is not in the batch or nothing changes. */
function withCall(state: PendingApprovalsState, toolUseId: string, approvals: PendingApproval[]): PendingApprovalsState {
  const index = state.calls.findIndex((call) => call.toolUseId === toolUseId);
  if (index < 0 || (approvals.length === 0 && state.calls[index]!.approvals.length === 0)) return state;
  const calls = state.calls.slice();
  calls[index] = { toolUseId, approvals };
  return { ...state, calls };
}

/** The pending calls of a whole session state (a checkpoint carries one). */
function callsOf(session: SessionState): PendingCall[] {
  const listed = pendingApprovalsOf(session);
  return (session.openBatch?.calls ?? []).map((call) => ({ toolUseId: call.toolUseId, approvals: listed.filter((approval) => approval.path?.[0] === call.toolUseId) }));
}

/**
 * What each entry kind does to the open batch's approvals, as `applyEntry` does to the session's
 * state; kinds not listed leave them alone. A step returns its input when nothing changes.
 */
const steps: { [K in SessionEntry['kind']]?: Step<K> } = {
  message: (state, entry) => {
    // A user message closes the batch; an assistant message opens one for its calls (joining the
    // assistant message before it, whose calls keep what they wait on).
    if (entry.message.role === 'user') return state.calls.length === 0 && state.lastRole === 'user' ? state : { ...state, lastRole: 'user', calls: [] };
    const known = state.lastRole === 'assistant' ? state.calls : [];
    const added = entry.message.content
      .filter((block): block is ToolUseBlock => block.type === 'tool_use' && !known.some((call) => call.toolUseId === (block as ToolUseBlock).id))
      .map((block): PendingCall => ({ toolUseId: block.id, approvals: [] }));
    return { ...state, lastRole: 'assistant', calls: [...known, ...added] };
  },
  'approval-pending': (state, entry) => withCall(state, entry.approval.toolUseId, [{ ...entry.approval, path: [entry.approval.toolUseId] }]),
  // Answered (or claimed) by the host: no longer in anyone's inbox.
  'approval-resolved': (state, entry) => {
    const call = state.calls.find((candidate) => candidate.toolUseId === entry.toolUseId);
    return call?.approvals.some((approval) => approval.id === entry.approvalId) ? withCall(state, entry.toolUseId, call.approvals.filter((approval) => approval.id !== entry.approvalId)) : state;
  },
  'call-allowed': (state, entry) => withCall(state, entry.toolUseId, []),
  'call-suspended': (state, entry) => withCall(state, entry.toolUseId, pendingApprovalsOf(entry.nested.state, [entry.toolUseId])),
  'tool-result': (state, entry) => withCall(state, entry.toolUseId, []),
  checkpoint: (state, entry) => {
    const last = entry.state.messages[entry.state.messages.length - 1];
    return { rule: PENDING_APPROVALS_RULE, agentId: state.agentId ?? null, ...(last ? { lastRole: last.role } : {}), calls: callsOf(entry.state) };
  },
};

function step(state: PendingApprovalsState, entry: SessionEntry): PendingApprovalsState {
  const agentId = entry.agentId ?? null;
  if (state.agentId === undefined) state = { ...state, agentId };
  else if (state.agentId !== agentId) return state;
  const apply = steps[entry.kind] as Step<SessionEntry['kind']> | undefined;
  return apply === undefined ? state : apply(state, entry);
}

/** The state of a session with no entries. */
export function emptyPendingApprovals(): PendingApprovalsState {
  return { rule: PENDING_APPROVALS_RULE, calls: [] };
}

/** The approvals a state waits on, flat, in the order the agent lists them (with `path`). */
export function pendingApprovalsIn(state: PendingApprovalsState): PendingApproval[] {
  return state.calls.flatMap((call) => call.approvals);
}

/**
 * True when `value` is a state this build's rule made, so folding can continue from it; a
 * store folds the whole transcript again otherwise.
 */
export function isCurrentPendingApprovals(value: unknown): value is PendingApprovalsState {
  if (typeof value !== 'object' || value === null) return false;
  const { rule, calls, lastRole, agentId } = value as Partial<PendingApprovalsState>;
  return (
    rule === PENDING_APPROVALS_RULE &&
    (agentId === undefined || agentId === null || typeof agentId === 'string') &&
    (lastRole === undefined || lastRole === 'user' || lastRole === 'assistant') &&
    Array.isArray(calls) &&
    calls.every(
      (call) =>
        typeof call === 'object' &&
        call !== null &&
        typeof call.toolUseId === 'string' &&
        Array.isArray(call.approvals) &&
        call.approvals.every((approval) => typeof approval === 'object' && approval !== null && typeof approval.id === 'string'),
    )
  );
}

/**
 * Folds transcript entries into a session's pending approvals, following `applyEntry`: an
 * assistant message opens a batch of its calls, `approval-pending` makes a call wait for the
 * host, `call-suspended` makes it wait on the approvals inside a nested run, and
 * `approval-resolved`, `call-allowed`, a `tool-result` or a user message (which closes the batch)
 * end the wait; a `checkpoint` starts over from the state it carries. Entries of other agents
 * than the first entry's (subagent sidechains) are passed over. Pure; the one place this
 * rule lives, used by every store's `listPending()`. `pendingApprovalsIn(state)` lists them.
 * @param state The state before `entries` (`undefined` for a session with no entries before them).
 * @returns `state` itself when no entry changed it, else a new state.
 * @throws ConfigurationError when `state` was made by another version of the rule (check with
 * {@link isCurrentPendingApprovals} and fold from the start instead).
 * @example
 * let pending = foldPendingApprovals(undefined, firstEntries);
 * pending = foldPendingApprovals(pending, laterEntries); // the same as folding all at once
 */
export function foldPendingApprovals(state: PendingApprovalsState | undefined, entries: Iterable<SessionEntry>): PendingApprovalsState {
  let current = state ?? emptyPendingApprovals();
  if (current.rule !== PENDING_APPROVALS_RULE) {
    throw new ConfigurationError(`Cannot continue a pending-approvals state made by rule ${String(current.rule)} with rule ${PENDING_APPROVALS_RULE}: fold the session's entries from the start.`);
  }
  for (const entry of entries) {
    try {
      current = step(current, entry);
    } catch {
      // An altered entry (a hand-edited transcript) is passed over: one damaged session must not
      // take the whole inbox down. Loading that session refuses it with SessionStoreCorruptError.
    }
  }
  return current;
}
