import type { SessionEntry } from '../state/entries.js';

/** A warning a store reports while loading (e.g. a torn last line after a crash). */
export interface SessionStoreWarning {
  sessionId: string;
  /** A sentence saying what was skipped and why. */
  message: string;
  /** 1-based line number for file stores. */
  line?: number;
}

/** Options of `load`. */
export interface SessionLoadOptions {
  /** Receives warnings (skipped torn lines, ...); loading never fails for them. */
  onWarning?: (warning: SessionStoreWarning) => void;
}

/** Options of `append`: the condition under which the store may append. */
export interface SessionAppendOptions {
  /**
   * The session's revision as this writer last saw it: the `seq` of the last entry it loaded or
   * appended, or 0 for a session with no entries. The store appends only if its revision for the
   * session is still exactly this one, and does so atomically with the check (compare-and-append);
   * otherwise it stores nothing and throws `SessionConflictError`. The entries carry the following
   * `seq` numbers (`expectedRevision + 1`, `+ 2`, …), so the new revision is that of the last one.
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
  sessionId: string;
  /** Who holds it (e.g. a worker id), as given to `acquire`. */
  holder: string;
  /** Grows with every new lease on the session; a write carrying an older token is refused. */
  fencingToken: number;
  /** Epoch milliseconds after which the lease is void unless renewed. */
  expiresAt: number;
}

/** Leases: one worker at a time holds a session; a crashed worker's lease expires. */
export interface SessionLeases {
  /**
   * Takes the session's lease for `ttlMs`, or returns undefined while another holder's lease is
   * unexpired. Taking it over from an expired holder gives a larger fencing token.
   */
  acquire(sessionId: string, options: { holder: string; ttlMs: number }): Promise<SessionLease | undefined>;
  /** Extends a held lease; undefined when it was lost (expired and taken, or released). */
  renew(lease: SessionLease, options: { ttlMs: number }): Promise<SessionLease | undefined>;
  /** Gives the lease up early; a no-op when it was already lost. */
  release(lease: SessionLease): Promise<void>;
}

/**
 * Where transcripts live. Entries are appended in order and never rewritten; every append is
 * conditional on the revision the writer last saw, so a stale writer (a second process holding
 * an old copy of the session) is refused instead of running anything twice. Implement it for
 * your own database and check it with the conformance suite in `agent-harness/testing`;
 * `memorySessionStore()` (core) and `fileSessionStore({ dir })` (`agent-harness/node`) ship
 * with the library.
 */
export interface SessionStore {
  /**
   * Appends entries to a session, in order, if the session's revision is still
   * `options.expectedRevision`. Resolves once they are durable (as the store defines it).
   * @throws SessionConflictError when the session's revision differs: nothing is stored.
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
}
