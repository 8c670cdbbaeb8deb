import { SessionConflictError } from '../errors/session-conflict-error.js';
import { assertSupportedEntry, isSupportedEntry } from './assert-supported-entry.js';
import { assertSessionId } from './assert-session-id.js';
import { checkAppend } from './check-append.js';
import { holdsCheckpointKind, TAIL_MIN_SIZE, textsFromCheckpoint } from './pick-checkpoint-start.js';
import { batchedEntries, entriesInBatches } from './entry-batches.js';
import { parseEntryText } from './parse-entry-text.js';
import { storedEntryId } from './stored-entry-id.js';
import { entryJson } from './entry-json.js';
import { compareSessionIds } from './compare-session-ids.js';
import { isReplay } from './is-replay.js';
import { clashesWith, entryIdClashError } from './entry-id-clash.js';
import type { SessionEntry } from '../state/entries.js';
import { checkLeaseArguments, checkLeaseObject, endLease, extendLease, fenceError, leaseOf, takeLease, type LeaseRecord } from './lease-rules.js';
import { foldPendingApprovals, pendingApprovalsIn, type PendingApprovalsState } from './pending-approvals.js';
import type { PendingSession, SessionLeases, SessionStore } from './session-store.js';
import { checkOptions, isFunction, type OptionsSpec } from '../options/index.js';

/** Options of {@link memorySessionStore}. */
export interface MemorySessionStoreOptions {
  /**
   * The clock leases run on, in epoch milliseconds. Tests pass a manual clock to expire leases
   * without waiting.
   * @default Date.now
   */
  now?: () => number;
}

const OPTIONS: OptionsSpec<MemorySessionStoreOptions> = { now: isFunction };

/** A stored entry as read back, checked to be one this build reads. */
function checkedEntry(sessionId: string, entry: unknown, place: number): SessionEntry {
  // Named in a string only when it fails: a load reads thousands.
  if (!isSupportedEntry(entry)) assertSupportedEntry(entry, sessionId, `transcript entry ${place} of session "${sessionId}"`);
  return entry;
}

const parseEntryJson = (text: string): SessionEntry => JSON.parse(text) as SessionEntry;

/**
 * Whether a pending-approvals state folded from the caller's entries keeps nothing of them but
 * strings: no call waits on an approval (a copy of the entry's, whose input it shares) or on a
 * nested run, and every id is a string.
 */
function holdsNothingOf(state: PendingApprovalsState): boolean {
  const { agentId } = state;
  if (agentId !== undefined && agentId !== null && typeof agentId !== 'string') return false;
  return state.calls.every((call) => typeof call.toolUseId === 'string' && call.approvals.length === 0 && call.nested === undefined);
}

interface StoredSession {
  /** Each entry as JSON, as the other stores keep it: parsed again for each reader. */
  texts: string[];
  /** The `seq` of the last entry. */
  revision: number;
  /** The `id` of the last entry, when it has one (what a writer that saw it names as `previousId`). */
  lastId: string | undefined;
  /** The index in `texts` of the first entry with each id. */
  ids: Map<string, number>;
  pending: PendingApprovalsState;
  /** Where a resume may start: the index of each text past the first whose beginning holds a checkpoint's kind, in order. */
  checkpoints: number[];
  /** The characters of all the texts. */
  chars: number;
}

/**
 * A session store that keeps transcripts in memory, for tests, short-lived agents and several
 * agents of one process. Entries are kept as JSON, as the file, PostgreSQL and Redis stores keep
 * them, and parsed again for each reader, so neither the caller nor a reader can change what is
 * stored, and what reads back is what the other stores would give (a value JSON cannot hold, such
 * as a BigInt, is refused the same way; parsing is also about three times faster than the
 * `structuredClone` this store used before). Appends are compare-and-append,
 * leases (`store.leases`) fence writers by token, and `listPending()` lists sessions waiting for
 * approval. Nothing survives the process.
 * @throws ConfigurationError for an unknown option or a `now` that is not a function, and (from
 * its methods) for a session id no store accepts (see `MAX_SESSION_ID_BYTES`).
 * @example
 * const store = memorySessionStore();
 * const agent = createAgent({ model, store });
 */
export function memorySessionStore(options: MemorySessionStoreOptions = {}): SessionStore {
  checkOptions<MemorySessionStoreOptions>(options, OPTIONS, { owner: 'memorySessionStore', usage: 'memorySessionStore({ now: () => clock })' });
  const now = options.now ?? Date.now;
  const sessions = new Map<string, StoredSession>();
  /** Kept after `delete`, so fencing tokens never repeat for a session id. */
  const leaseRecords = new Map<string, LeaseRecord>();

  const leases: SessionLeases = {
    async acquire(sessionId, acquireOptions) {
      assertSessionId(sessionId);
      checkLeaseArguments('memorySessionStore.leases.acquire', acquireOptions, true);
      const record = takeLease(leaseRecords.get(sessionId), acquireOptions.holder, acquireOptions.ttlMs, now());
      if (record === undefined) return undefined;
      leaseRecords.set(sessionId, record);
      return leaseOf(sessionId, record);
    },
    async renew(lease, renewOptions) {
      checkLeaseObject('memorySessionStore.leases.renew', lease);
      checkLeaseArguments('memorySessionStore.leases.renew', renewOptions, false);
      const record = extendLease(leaseRecords.get(lease.sessionId), lease, renewOptions.ttlMs, now());
      if (record === undefined) return undefined;
      leaseRecords.set(lease.sessionId, record);
      return leaseOf(lease.sessionId, record);
    },
    async release(lease) {
      checkLeaseObject('memorySessionStore.leases.release', lease);
      const record = endLease(leaseRecords.get(lease.sessionId), lease, now());
      if (record !== undefined) leaseRecords.set(lease.sessionId, record);
    },
  };

  return {
    async append(sessionId, entries, appendOptions) {
      assertSessionId(sessionId);
      const { expectedRevision, fencingToken, revision, previousId } = checkAppend('memorySessionStore', sessionId, entries, appendOptions);
      // Written out before anything is stored, so an entry JSON cannot hold stores nothing.
      const texts = entries.map((entry, index) => entryJson('memorySessionStore', sessionId, entry, index));
      // Nothing to store: nothing checked (as in every store).
      if (texts.length === 0) return;
      // Checked and appended with no await in between: the compare-and-append is atomic.
      const stored = sessions.get(sessionId);
      const actualRevision = stored?.revision ?? 0;
      // A retry of an append whose reply was lost: stored already, whatever the lease says now.
      if (actualRevision >= revision && isReplay(stored!.texts.slice(expectedRevision, revision), texts)) return;
      if (fencingToken !== undefined) {
        const lost = fenceError(sessionId, leaseRecords.get(sessionId), fencingToken, now());
        if (lost) throw lost;
      }
      if (actualRevision !== expectedRevision) throw new SessionConflictError({ sessionId, expectedRevision, actualRevision });
      // The same revision of another history: the session was deleted and written again.
      const seen = stored?.lastId;
      if (previousId !== undefined && typeof seen === 'string' && seen !== previousId) throw new SessionConflictError({ sessionId, expectedRevision, actualRevision });
      // The ids as stored, read from the texts: a getter or `toJSON` could make the caller's
      // objects name others.
      const textIds = texts.map(storedEntryId);
      // An id the session holds for another entry: no load could tell the two apart.
      const ids = stored?.ids ?? new Map<string, number>();
      if (stored !== undefined) {
        for (const [index, id] of textIds.entries()) {
          const at = typeof id === 'string' ? ids.get(id) : undefined;
          if (at === undefined) continue;
          const held = parseEntryJson(stored.texts[at]!);
          if (clashesWith(held, parseEntryJson(texts[index]!))) throw entryIdClashError('memorySessionStore', sessionId, { id: id as string, storedSeq: held.seq ?? at + 1, seq: expectedRevision + index + 1 });
        }
      }
      // Folded from the entries as given (as the PostgreSQL and Redis stores fold them), with no
      // copy made, unless the state would then keep an object of theirs (an approval waiting,
      // a suspended call's nested run): folded again from copies of what was stored, which the
      // caller cannot change.
      let pending = foldPendingApprovals(stored?.pending, entries);
      if (!holdsNothingOf(pending)) pending = foldPendingApprovals(stored?.pending, texts.map(parseEntryJson));
      const base = stored?.texts.length ?? 0;
      for (const [index, id] of textIds.entries()) if (typeof id === 'string' && !ids.has(id)) ids.set(id, base + index);
      const last = textIds[textIds.length - 1];
      const lastId = typeof last === 'string' ? last : undefined;
      // Told once here rather than on every resume (looked for as the other stores look for it).
      const checkpoints = stored?.checkpoints ?? [];
      let chars = stored?.chars ?? 0;
      for (const [index, text] of texts.entries()) {
        if (base + index > 0 && holdsCheckpointKind(text)) checkpoints.push(base + index);
        chars += text.length;
      }
      if (stored === undefined) sessions.set(sessionId, { texts, revision, lastId, ids, pending, checkpoints, chars });
      else {
        stored.chars = chars;
        stored.texts.push(...texts);
        stored.revision = revision;
        stored.lastId = lastId;
        stored.pending = pending;
      }
    },

    load(sessionId, loadOptions) {
      return batchedEntries(async function* () {
        assertSessionId(sessionId);
        // What was stored when loading began; appends made while iterating are not seen.
        const session = sessions.get(sessionId);
        const stored = session?.texts.slice() ?? [];
        const hint = loadOptions?.fromCheckpoint;
        // Resuming: only the entries from the agent's last checkpoint on are parsed.
        // (Under TAIL_MIN_SIZE characters, looking costs about what it saves. The list as it is
        // now: an append made while looking is not read.)
        const { start, entry } =
          hint && session && session.chars >= TAIL_MIN_SIZE ? await textsFromCheckpoint(stored, session.checkpoints.slice(), hint, parseEntryText) : { start: 0, entry: undefined };
        yield* entriesInBatches(stored.length - start, (offset) => {
          const index = start + offset;
          // The checkpoint started at was parsed already.
          return checkedEntry(sessionId, offset === 0 && entry !== undefined ? entry : JSON.parse(stored[index]!), index + 1);
        });
      });
    },
    async list() {
      return [...sessions.keys()];
    },

    async delete(sessionId) {
      assertSessionId(sessionId);
      sessions.delete(sessionId);
      // The lease ends with the session; its token stays used.
      const record = leaseRecords.get(sessionId);
      if (record !== undefined) leaseRecords.set(sessionId, { ...record, expiresAt: Math.min(record.expiresAt, now()) });
    },

    async close(sessionId) {
      assertSessionId(sessionId);
    },

    leases,

    async listPending() {
      const waiting: PendingSession[] = [];
      for (const [sessionId, stored] of sessions) {
        const approvals = pendingApprovalsIn(stored.pending);
        if (approvals.length > 0) waiting.push({ sessionId, approvals: structuredClone(approvals) });
      }
      return waiting.sort((a, b) => compareSessionIds(a.sessionId, b.sessionId));
    },
  };
}
