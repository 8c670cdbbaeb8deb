import { ConfigurationError } from '../errors/configuration-error.js';
import type { ToolUseBlock } from '../model/messages.js';
import type { SessionEntry } from '../state/entries.js';
import type { BatchCall, SessionState } from '../state/session-state.js';
import type { PendingApproval } from '../types/pending-approval.js';
import { hostFacingApproval } from '../state/index.js';
import { argumentError, isIterable, isObjectValue } from '../errors/argument-error.js';

/**
 * The version of the rule below. Bump it whenever an entry kind starts or stops opening or
 * closing approvals: stores keep folded states (a database row, a Redis hash), and fold a
 * session again from its transcript when its saved state was made by another version.
 */
export const PENDING_APPROVALS_RULE = 2;

/** One call of the open batch, with what it waits on. */
export interface PendingCall {
  /** The call's `tool_use` id. */
  toolUseId: string;
  /** Its approval (a deferred call), or none. A suspended call's approvals are its nested run's. */
  approvals: PendingApproval[];
  /**
   * The nested run a suspended call waits on: the subagent's id and what that run waits on, which
   * the subagent's own entries (its sidechain, written while an approval inside it is answered)
   * continue, as `foldEntries` continues the nested state.
   */
  nested?: { agentId: string; state: PendingApprovalsState };
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

const waitsOnNothing = (call: PendingCall): boolean => call.approvals.length === 0 && call.nested === undefined;

/** The state with one call replaced by `next`; the same state when the call is not in the batch or nothing changes. */
function withCall(state: PendingApprovalsState, next: PendingCall): PendingApprovalsState {
  const index = state.calls.findIndex((call) => call.toolUseId === next.toolUseId);
  if (index < 0 || (waitsOnNothing(next) && waitsOnNothing(state.calls[index]!))) return state;
  const calls = state.calls.slice();
  calls[index] = next;
  return { ...state, calls };
}

/** What a whole session state (a checkpoint's, a nested run's) waits on, as folding its transcript would give. */
function pendingStateOf(session: SessionState, agentId: string | null): PendingApprovalsState {
  const last = session.messages[session.messages.length - 1];
  return { rule: PENDING_APPROVALS_RULE, agentId, ...(last ? { lastRole: last.role } : {}), calls: (session.openBatch?.calls ?? []).map(pendingCallOf) };
}

function pendingCallOf(call: BatchCall): PendingCall {
  if (call.state === 'deferred' && call.approval) return { toolUseId: call.toolUseId, approvals: [{ ...call.approval, path: [call.toolUseId] }] };
  if (call.state === 'suspended' && call.nested) return suspendedCall(call.toolUseId, call.nested.agentId, call.nested.state);
  return { toolUseId: call.toolUseId, approvals: [] };
}

function suspendedCall(toolUseId: string, agentId: string, nested: SessionState): PendingCall {
  return { toolUseId, approvals: [], nested: { agentId, state: pendingStateOf(nested, agentId) } };
}

/**
 * Folds a sidechain entry into the nested run of agent `agentId` a suspended call waits on, at
 * any depth, the first found (as `foldEntries` applies it); undefined when no call waits on it.
 */
function intoNestedRun(state: PendingApprovalsState, agentId: string, entry: SessionEntry): PendingApprovalsState | undefined {
  for (const call of state.calls) {
    const nested = call.nested;
    if (nested === undefined) continue;
    const next = nested.agentId === agentId ? step(nested.state, entry) : intoNestedRun(nested.state, agentId, entry);
    if (next === undefined) continue;
    return next === nested.state ? state : withCall(state, { ...call, nested: { agentId: nested.agentId, state: next } });
  }
  return undefined;
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
  'approval-pending': (state, entry) => withCall(state, { toolUseId: entry.approval.toolUseId, approvals: [{ ...entry.approval, path: [entry.approval.toolUseId] }] }),
  // An answer is recorded with the entry that follows it (`call-allowed`, a `tool-result`): a
  // process that stopped in between left the call waiting, in the inbox as in the session. Only
  // version 1 let an allow end the wait by itself (foldEntries reads it the same way).
  'approval-resolved': (state, entry) => {
    if (entry.$schemaVersion !== 1 || entry.decision.behavior !== 'allow') return state;
    const call = state.calls.find((candidate) => candidate.toolUseId === entry.toolUseId);
    return call && call.approvals.length > 0 ? withCall(state, { toolUseId: entry.toolUseId, approvals: [] }) : state;
  },
  'call-allowed': (state, entry) => withCall(state, { toolUseId: entry.toolUseId, approvals: [] }),
  'call-suspended': (state, entry) => withCall(state, suspendedCall(entry.toolUseId, entry.nested.agentId, entry.nested.state)),
  'tool-result': (state, entry) => withCall(state, { toolUseId: entry.toolUseId, approvals: [] }),
  checkpoint: (state, entry) => pendingStateOf(entry.state, state.agentId ?? null),
};

function step(state: PendingApprovalsState, entry: SessionEntry): PendingApprovalsState {
  const agentId = entry.agentId ?? null;
  if (state.agentId === undefined) state = { ...state, agentId };
  else if (state.agentId !== agentId) return agentId === null ? state : (intoNestedRun(state, agentId, entry) ?? state);
  const apply = steps[entry.kind] as Step<SessionEntry['kind']> | undefined;
  return apply === undefined ? state : apply(state, entry);
}

/** The state of a session with no entries. */
export function emptyPendingApprovals(): PendingApprovalsState {
  return { rule: PENDING_APPROVALS_RULE, calls: [] };
}

/** The approvals a state waits on, flat, in the order the agent lists them (with `path`), as the host is shown them. */
export function pendingApprovalsIn(state: PendingApprovalsState): PendingApproval[] {
  if (!isObjectValue(state) || !Array.isArray(state.calls)) throw argumentError('pendingApprovalsIn', 'state', 'a pending-approvals state (foldPendingApprovals())', state);
  return state.calls.flatMap((call) =>
    call.nested === undefined ? call.approvals.map(hostFacingApproval) : pendingApprovalsIn(call.nested.state).map((approval) => ({ ...approval, path: [call.toolUseId, ...(approval.path ?? [])] })),
  );
}

/**
 * True when `value` is a state this build's rule made, so folding can continue from it; a
 * store folds the whole transcript again otherwise.
 */
export function isCurrentPendingApprovals(value: unknown): value is PendingApprovalsState {
  return isPendingState(value, 0);
}

/** Nested runs deeper than this are not a state this build wrote. */
const MAX_NESTING = 32;

function isPendingState(value: unknown, depth: number): value is PendingApprovalsState {
  if (typeof value !== 'object' || value === null || depth > MAX_NESTING) return false;
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
        call.approvals.every((approval) => typeof approval === 'object' && approval !== null && typeof approval.id === 'string') &&
        (call.nested === undefined ||
          (typeof call.nested === 'object' && call.nested !== null && typeof call.nested.agentId === 'string' && isPendingState(call.nested.state, depth + 1))),
    )
  );
}

/**
 * Folds transcript entries into a session's pending approvals, following `applyEntry`: an
 * assistant message opens a batch of its calls, `approval-pending` makes a call wait for the
 * host, `call-suspended` makes it wait on the approvals inside a nested run (which that
 * subagent's own entries continue), and `call-allowed`, a `tool-result` or a user message (which
 * closes the batch) end the wait; a `checkpoint` starts over from the state it carries. Other
 * entries of other agents than the first entry's (subagent transcripts) are passed over. The
 * approvals listed are those of `pendingApprovalsOf(foldEntries(entries))` for every prefix of a
 * transcript (a process may stop between any two appends). Pure; the one place this
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
  if (state !== undefined && !isObjectValue(state)) throw argumentError('foldPendingApprovals', 'state', 'a pending-approvals state (from an earlier call) or undefined', state);
  if (!isIterable(entries)) throw argumentError('foldPendingApprovals', 'entries', 'an array or iterable of session entries', entries);
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
