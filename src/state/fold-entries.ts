import { applyEntry } from './apply-entry.js';
import { applyEntryUnchecked } from './apply-entry.js';
import { describeThrown } from '../errors/describe-thrown.js';
import { nestingDepthOver } from '../history/nesting-depth-over.js';
import { SessionStoreCorruptError } from '../errors/session-store-corrupt-error.js';
import { SnapshotInvalidError } from '../errors/snapshot-invalid-error.js';
import type { EntryDraft, SessionEntry } from './entries.js';
import { createSessionState, type BatchCall, type SessionState } from './session-state.js';
import { isTokenCount, validateMessage, validateSessionState } from './validate-session-state.js';
import { argumentError, isIterable, isObjectValue } from '../errors/argument-error.js';

/**
 * How deep one entry may nest: what fits in a snapshot (160 levels), one level down for a
 * checkpoint's state and two for a suspended call's nested state. Checked without recursion
 * before anything reads the entry, so an altered line cannot overflow the stack.
 */
const MAX_ENTRY_DEPTH = 162;

/** Options of {@link foldEntries}. */
export interface FoldEntriesOptions {
  sessionId: string;
  /**
   * Whose entries to fold: entries of other agents (subagent sidechains) are passed over.
   * @default the agent of the first entry
   */
  agentId?: string;
}

/**
 * Rebuilds a session's state from its transcript with {@link applyEntry} — the same function the
 * live agent applies each entry with. Starts again at every `checkpoint`. Version 1 entries
 * (written before calls had their own `call-allowed` entries) are read the way they were
 * written. The result is the state as stored: a call that was running when the process stopped
 * still shows `allowed`; `settleLoadedState` answers it before the session continues.
 */
export function foldEntries(entries: Iterable<SessionEntry>, options: FoldEntriesOptions): SessionState {
  if (!isIterable(entries)) throw argumentError('foldEntries', 'entries', 'an array or iterable of session entries', entries);
  if (!isObjectValue(options) || typeof options.sessionId !== 'string') throw argumentError('foldEntries', 'options', 'an object with a sessionId string ({ sessionId })', options);
  return foldFrom(entries, options, false);
}

/**
 * {@link foldEntries} of entries nothing else holds (parsed by a library store for this load
 * alone): the state of the checkpoint it starts at is taken as it is instead of copied (a copy
 * of a 300 KB state costs about 1.4 ms), as the state it returns is the only user of it. Never
 * for entries a host's store hands over: it may keep them, and the live state changes in place.
 * @internal
 */
export function foldOwnedEntries(entries: readonly SessionEntry[], options: FoldEntriesOptions): SessionState {
  return foldFrom(entries, options, true);
}

function foldFrom(entries: Iterable<SessionEntry>, options: FoldEntriesOptions, owned: boolean): SessionState {
  let state: SessionState | undefined;
  let agentId = options.agentId;
  let batchOpenedByVersion1 = false;
  const list = Array.isArray(entries) ? (entries as readonly SessionEntry[]) : [...entries];
  agentId ??= list[0]?.agentId;
  // Everything before the agent's last checkpoint (a compaction boundary, a fork's seed) is
  // replaced by it: folding starts there, so a long session loads in time flat in its length.
  let start = 0;
  for (let index = list.length - 1; index > 0; index--) {
    if (list[index]!.kind === 'checkpoint' && list[index]!.agentId === agentId) {
      start = index;
      break;
    }
  }
  for (const entry of start === 0 ? list : list.slice(start)) {
    if (state === undefined) {
      agentId ??= entry.agentId;
      state = createSessionState({ sessionId: options.sessionId, ...(agentId !== undefined ? { agentId } : {}) });
    }
    if (nestingDepthOver(entry, MAX_ENTRY_DEPTH)) throw damaged(options.sessionId, entry, `is nested deeper than ${MAX_ENTRY_DEPTH} levels`);
    try {
      if (entry.agentId !== agentId) {
        // A subagent's sidechain: its entries continue the nested run a suspended call waits on
        // (written while an approval inside it was being answered); others are its transcript only.
        if (entry.agentId !== undefined) applyToNestedRun(state, entry.agentId, entry);
        continue;
      }
      checkEntry(entry);
      if (entry.kind === 'message' && entry.message.role === 'assistant') batchOpenedByVersion1 = entry.$schemaVersion === 1;
      const allowed = version1Allow(state, entry);
      state = owned && entry.kind === 'checkpoint' ? entry.state : applyEntryUnchecked(state, entry);
      if (allowed !== undefined) state = applyEntryUnchecked(state, allowed);
    } catch (error) {
      // A well-typed entry never throws: this one was altered (edited by hand, written by a bug).
      const problem = SnapshotInvalidError.isInstance(error) ? `${error.path}: ${error.problem}` : describeThrown(error);
      throw damaged(options.sessionId, entry, `cannot be applied (${problem})`);
    }
  }
  state ??= createSessionState({ sessionId: options.sessionId, ...(agentId !== undefined ? { agentId } : {}) });
  if (batchOpenedByVersion1) markVersion1CallsAllowed(state);
  return state;
}

function damaged(sessionId: string, entry: SessionEntry, problem: string): SessionStoreCorruptError {
  const kind = typeof entry?.kind === 'string' ? entry.kind.slice(0, 40) : 'unknown kind';
  return new SessionStoreCorruptError({
    sessionId,
    location: `transcript entry ${typeof entry?.seq === 'number' ? entry.seq : '?'} (${kind})`,
    problem,
    repair: 'The entry was altered; restore the session from a backup or a snapshot, or remove that entry and the ones after it.',
  });
}

/**
 * Version 1 recorded no decision for a call allowed by the pipeline, so an undecided call before
 * the first pending approval may have been running: it is read as allowed, and settling answers
 * it as interrupted — never run again (what version 1 did).
 */
function markVersion1CallsAllowed(state: SessionState): void {
  for (const call of state.openBatch?.calls ?? []) {
    if (call.state === 'deferred' || call.state === 'suspended') return;
    if (call.state === 'undecided') {
      call.state = 'allowed';
      call.input = null;
    }
  }
}

/**
 * A version 1 resolved approval also allowed the call (version 2 records `call-allowed`): the
 * entry to apply after it, or undefined (for every other entry). Read before `entry` is applied.
 */
function version1Allow(state: SessionState, entry: SessionEntry): EntryDraft | undefined {
  if (entry.$schemaVersion !== 1 || entry.kind !== 'approval-resolved' || entry.decision.behavior !== 'allow') return undefined;
  const call = state.openBatch?.calls.find((candidate) => candidate.toolUseId === entry.toolUseId);
  if (call?.state !== 'deferred') return undefined;
  return { kind: 'call-allowed', toolUseId: entry.toolUseId, input: entry.input ?? call.approval?.input };
}

/**
 * Checks what an entry brings into the state that later code reads block by block (a message, a
 * nested run's state): an altered one fails here, naming the entry, instead of as a `TypeError`
 * deep in recovering a plan or settling calls.
 */
function checkEntry(entry: SessionEntry): void {
  // Every entry written has both: an object without them is no entry (a row or value edited by hand).
  const { kind, id } = entry as { kind?: unknown; id?: unknown };
  if (typeof kind !== 'string') throw new Error(`kind: expected the entry's kind (a string), got ${JSON.stringify(kind) ?? 'none'}`);
  if (typeof id !== 'string') throw new Error(`id: expected the entry's id (a string), got ${JSON.stringify(id) ?? 'none'}`);
  if (entry.kind === 'message') validateMessage(entry.message);
  else if (entry.kind === 'call-suspended') {
    const nested = entry.nested as Partial<NonNullable<BatchCall['nested']>> | undefined;
    if (typeof nested !== 'object' || nested === null || typeof nested.agentId !== 'string') throw new Error('nested: expected { agentId, state }');
    validateSessionState(nested.state, 'nested.state');
  } else if (entry.kind === 'compaction-pause' && entry.resumesAt !== undefined && !isTokenCount(entry.resumesAt)) {
    throw new Error(`resumesAt: expected a count of tokens, got ${JSON.stringify(entry.resumesAt)}`);
  } else if (entry.kind === 'answer-withheld' && typeof entry.note !== 'string') {
    throw new Error(`note: expected the text the model is told in place of its refused answer (a string), got ${JSON.stringify(entry.note) ?? 'none'}`);
  }
}

/**
 * Applies a sidechain entry to the nested run of agent `agentId` that a suspended call waits on
 * (at any depth). The entry is applied to the nested state in place; true when one was found.
 */
function applyToNestedRun(state: SessionState, agentId: string, entry: SessionEntry): boolean {
  for (const call of state.openBatch?.calls ?? []) {
    if (call.state !== 'suspended' || !call.nested) continue;
    if (call.nested.agentId === agentId) {
      checkEntry(entry);
      call.nested.state = applyEntryUnchecked(call.nested.state, entry);
      return true;
    }
    if (applyToNestedRun(call.nested.state, agentId, entry)) return true;
  }
  return false;
}
