import { keepLatest } from './keep-latest.js';
import { PENDING_APPROVALS_RULE, type PendingApprovalsState } from './pending-approvals.js';
import { parseSavedPending } from './saved-pending-approvals.js';

/** A session's pending approvals at a revision, the next append folds its entries onto. */
export interface PendingBasis {
  revision: number;
  /** The id of the session's entry at `revision` (the next append's first `parentId`). */
  lastId: string | undefined;
  state: PendingApprovalsState;
}

/** A session's saved fields as a load read them, in one snapshot. */
export interface LoadedSessionHead {
  revision: number;
  /** The folded pending approvals as saved (JSON text), or null. */
  pending: string | null;
  /** The rule that folded `pending`. */
  rule: number;
  /** The id of the session's entry at `revision`; null when unknown. */
  lastId: string | null;
}

/**
 * Sessions whose basis a store keeps between a load or an append and the next append: a store
 * kept for the life of a process sees every session it serves, and one that only loads (a viewer)
 * would keep them all. An evicted session's next append reads its saved fields again.
 */
const MAX_BASES = 10_000;

/**
 * The pending approvals a server store (PostgreSQL, Redis) folds a session's next append onto,
 * per session: the state it saved with its last append, or the one a load read with the session's
 * revision, so that the first append of an agent the load resumed need not read the session's
 * saved fields again (a store made per request always did). An append checks the basis's
 * revision and last id against the writer's before folding onto it, and the store's own check
 * refuses the append when the session moved since.
 */
export class PendingBases {
  readonly #bases = new Map<string, PendingBasis>();

  /** The basis kept for the session, if any. */
  get(sessionId: string): PendingBasis | undefined {
    return this.#bases.get(sessionId);
  }

  /** Keeps `basis` as the session's latest. */
  keep(sessionId: string, basis: PendingBasis): void {
    keepLatest(this.#bases, sessionId, basis, MAX_BASES);
  }

  /**
   * Keeps what a load read, when it is a basis: a state saved by this build's rule, at a revision
   * with its entry's id, and not older than the basis kept.
   */
  keepLoaded(sessionId: string, head: LoadedSessionHead): void {
    if (head.revision === 0 || head.lastId === null || head.rule !== PENDING_APPROVALS_RULE) return;
    const known = this.#bases.get(sessionId);
    if (known !== undefined && known.revision >= head.revision) return;
    const state = parseSavedPending(head.pending);
    if (state !== undefined) this.keep(sessionId, { revision: head.revision, lastId: head.lastId, state });
  }

  /** Forgets the session's basis (a failed append, a delete). */
  delete(sessionId: string): void {
    this.#bases.delete(sessionId);
  }
}
