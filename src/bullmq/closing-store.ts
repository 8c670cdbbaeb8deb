import type { SessionEntry } from '../state/entries.js';
import type { SessionAppendOptions, SessionStore } from '../session/session-store.js';

/** A job's view of the fleet's store, which the worker can shut for writes when it stops the job. */
export interface ClosingStore {
  /** The store the job's agent writes through. */
  readonly store: SessionStore;
  /**
   * Refuses every append that starts from now on with `refusal()`, and resolves once the appends
   * already under way have settled (stored or refused by the store), so that the lease may be
   * released after them: what was being written when the job was stopped (a tool's result) is
   * kept, and nothing is written after (not the run's end), even if the lease cannot be released.
   */
  shut(refusal: () => Error): Promise<void>;
}

/**
 * Wraps the fleet's store for one job of a worker: appends pass through until the worker shuts it
 * (a forced close), then are refused, and the appends under way can be waited on.
 */
export function closingStore(store: SessionStore): ClosingStore {
  let refusal: (() => Error) | undefined;
  const underWay = new Set<Promise<unknown>>();
  const append = (sessionId: string, entries: readonly SessionEntry[], options: SessionAppendOptions): Promise<void> => {
    if (refusal !== undefined) return Promise.reject(refusal());
    const appending = store.append(sessionId, entries, options);
    const settled: Promise<unknown> = appending.then(
      () => underWay.delete(settled),
      () => underWay.delete(settled),
    );
    underWay.add(settled);
    return appending;
  };
  // Each method called on the store itself: a store that is a class keeps its `this` (and its private fields).
  const wrapped: SessionStore = {
    append,
    load: (sessionId, options) => store.load(sessionId, options),
    list: () => store.list(),
    delete: (sessionId) => store.delete(sessionId),
    ...(store.close ? { close: (sessionId: string) => store.close!(sessionId) } : {}),
    ...(store.leases ? { leases: store.leases } : {}),
    ...(store.listPending ? { listPending: () => store.listPending!() } : {}),
  };
  return {
    store: wrapped,
    shut: async (refuse) => {
      refusal ??= refuse;
      await Promise.all(underWay);
    },
  };
}
