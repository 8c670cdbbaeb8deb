import type { PendingApproval } from '../types/pending-approval.js';
import type { SessionEntry } from '../state/entries.js';

/** A warning a store reports while loading (e.g. a torn last line after a crash). */
export interface SessionStoreWarning {
  sessionId: string;
  /** A sentence saying what was skipped and why. */
  message: string;
  /** 1-based line number for file stores. */
  line?: number;
  /** The `seq` of the entry concerned, for stores that keep entries by number (databases). */
  seq?: number;
}

/** Options of `load`. */
export interface SessionLoadOptions {
  /** Receives warnings (skipped torn lines, ...); loading never fails for them. */
  onWarning?: (warning: SessionStoreWarning) => void;
  /**
   * A hint from a load that needs only the entries from an agent's last `checkpoint` on (resuming
   * folds from there: everything before it is replaced by it). A store may then start at such a
   * checkpoint instead of the first entry, and yield every entry after it; one that ignores the
   * hint yields the whole transcript, which is always correct, only slower. A checkpoint to start
   * at must be of the agent asked for, carry a `seq`, and directly follow the entry stored before
   * it (a `seq` one more, a `parentId` that is its `id`). The memory and file stores honor it,
   * parsing only the entries that may be such a checkpoint and those after the last one.
   * A load started at a checkpoint neither checks nor reports what is stored before it.
   * @default the whole transcript
   */
  fromCheckpoint?: {
    /**
     * The agent whose checkpoints count: a subagent's id, or undefined for the agent of the
     * session's first entry (the main agent), as `foldEntries` folds.
     */
    agentId?: string;
  };
}

/** Options of `append`: the condition under which the store may append. */
export interface SessionAppendOptions {
  /**
   * The session's revision as this writer last saw it: the `seq` of the last entry it loaded or
   * appended, or 0 for a session with no entries. The store appends only if its revision for the
   * session is still exactly this one, and does so atomically with the check (compare-and-append);
   * otherwise it stores nothing and throws `SessionConflictError`. The entries carry the following
   * `seq` numbers (`expectedRevision + 1`, `+ 2`, …), so the new revision is that of the last one.
   * When the first entry's `parentId` is a non-empty string (the id of the entry the writer saw
   * last, as the library's writers set it), the session's entry at `expectedRevision` must have
   * that id too: a session deleted and written again up to the same revision is another history,
   * and the writer that saw the old one is refused with `SessionConflictError`.
   */
  expectedRevision: number;
  /**
   * The fencing token of the lease this writer holds on the session (see `SessionStore.leases`).
   * A store with leases refuses the append with `LeaseLostError` when the token is not that of
   * the session's current, unexpired lease, so a worker that lost its lease can never write.
   * @default no lease check
   */
  fencingToken?: number;
}

/** A worker's time-limited, exclusive hold on a session. */
export interface SessionLease {
  /** The session the lease is on. */
  sessionId: string;
  /** Who holds it (e.g. a worker id), as given to `acquire`. */
  holder: string;
  /**
   * Grows with every lease taken on the session (never repeats, also after `delete`); a write
   * carrying any other token than the current lease's is refused with `LeaseLostError`.
   */
  fencingToken: number;
  /** Epoch milliseconds, in the store's clock, at which the lease ends unless renewed. */
  expiresAt: number;
}

/** Options of `SessionLeases.acquire`. */
export interface SessionLeaseAcquireOptions {
  /** Who takes the lease, e.g. a worker id; shown to others in errors. A non-empty string. */
  holder: string;
  /** How long the lease lasts unless renewed, in milliseconds (a positive integer). */
  ttlMs: number;
}

/** Options of `SessionLeases.renew`. */
export interface SessionLeaseRenewOptions {
  /** The new lifetime from now, in milliseconds (a positive integer). */
  ttlMs: number;
}

/**
 * Leases: one worker at a time holds a session, and a crashed worker's lease runs out. A lease is
 * valid while the store's clock reads less than its `expiresAt`; once expired it is lost for good
 * (renew refuses it, writes under its token are refused) and only a new `acquire` — with a larger
 * fencing token — holds the session again.
 */
export interface SessionLeases {
  /**
   * Takes the session's lease for `ttlMs` with a new, larger fencing token, or returns undefined
   * while another holder's lease is unexpired. A holder that acquires again while it still holds
   * the lease gets a new token: its earlier lease object is lost.
   * @throws ConfigurationError for an empty holder or a ttl that is not a positive integer.
   */
  acquire(sessionId: string, options: SessionLeaseAcquireOptions): Promise<SessionLease | undefined>;
  /**
   * Extends a held lease to `ttlMs` from now, keeping its token; undefined when it was lost
   * (expired, released, or taken over).
   */
  renew(lease: SessionLease, options: SessionLeaseRenewOptions): Promise<SessionLease | undefined>;
  /** Gives the lease up early (its token stays used); a no-op when it was already lost. */
  release(lease: SessionLease): Promise<void>;
}

/** A session waiting for the host to answer, as `listPending()` reports it. */
export interface PendingSession {
  /** The waiting session; resume it with `createAgent({ store, resume: sessionId })`. */
  sessionId: string;
  /** Its unanswered approvals, in the order they were asked. Never empty. */
  approvals: PendingApproval[];
}

/**
 * Where transcripts live. Entries are appended in order and never rewritten; every append is
 * conditional on the revision the writer last saw, so a stale writer (a second process holding
 * an old copy of the session) is refused instead of running anything twice. Implement it for
 * your own database and check it with the conformance suite in `agent-harness/testing`;
 * `memorySessionStore()` (core) and `fileSessionStore({ dir })` (`agent-harness/node`) ship
 * with the library. Every store accepts session ids of up to `MAX_SESSION_ID_BYTES` (200) bytes
 * of UTF-8 and refuses longer ones with `ConfigurationError`, so an id that works in one store
 * works in all (the file store takes fewer characters: letters, digits, `.`, `_`, `-`).
 */
export interface SessionStore {
  /**
   * Appends entries to a session, in order, if the session's revision is still
   * `options.expectedRevision`. Resolves once they are durable (as the store defines it). An append
   * whose entries are already stored where it would put them, byte for byte as JSON (a retry after
   * its reply was lost), resolves without writing, whatever the session's revision or lease now.
   * @throws SessionConflictError when the session's revision differs, or its entry at that
   * revision is not the one the first entry's `parentId` names: nothing is stored.
   * @throws LeaseLostError when `options.fencingToken` is not the session's current, unexpired
   * lease (stores with leases): nothing is stored.
   * @throws ConfigurationError for a missing or negative `expectedRevision`, an entry whose
   * `seq` is not the next position, or an entry that does not write as a JSON object (a BigInt,
   * a cycle, a `toJSON` that returns no object): nothing is stored.
   */
  append(sessionId: string, entries: readonly SessionEntry[], options: SessionAppendOptions): Promise<void>;
  /** The session's entries in order; empty for an unknown session. The revision is the last entry's `seq`. */
  load(sessionId: string, options?: SessionLoadOptions): AsyncIterable<SessionEntry>;
  /** Ids of stored sessions. */
  list(): Promise<string[]>;
  /** Deletes a session's transcript; no-op when unknown. */
  delete(sessionId: string): Promise<void>;
  /** Releases what the store holds for a session (e.g. a file lock); the store may be used again after. */
  close?(sessionId: string): Promise<void>;
  /** Leases for hosts with several workers; stores without them leave it out. */
  readonly leases?: SessionLeases;
  /**
   * Sessions with unanswered approvals, each with its approvals, sorted by session id in code
   * point order (`compareSessionIds`, the byte order of UTF-8): what an approval inbox shows. Every store derives them with `foldPendingApprovals`, so they agree.
   * Stores that cannot answer it cheaply may leave it out.
   */
  listPending?(): Promise<PendingSession[]>;
}
