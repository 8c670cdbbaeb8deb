import type { SessionEntry } from '../state/entries.js';
import type { SessionAppendOptions, SessionStore } from '../session/session-store.js';
import { loadTranscript } from '../session/load-entries.js';
import { keepingLoad, replayKeptLoad, type KeptLoad } from './kept-load.js';

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
  /**
   * Loads the whole transcript of `sessionId` (as `loadEntries` does) for the worker, and keeps
   * what the store yielded: the next load of that session through `store` (the job's agent
   * resuming it) is answered from it instead of reading the store again, unless something was
   * appended or deleted through `store` first. The worker holds the session's lease from before
   * this load, so that load is the one the store would give (a load of the same moment); a
   * writer outside the lease moving the session meanwhile is refused at the agent's first append
   * (its expected revision), as it would be had it come right after the agent's own load.
   */
  loadForJob(sessionId: string): Promise<SessionEntry[]>;
}

/**
 * Wraps the fleet's store for one job of a worker: appends pass through until the worker shuts it
 * (a forced close), then are refused, and the appends under way can be waited on.
 */
export function closingStore(store: SessionStore): ClosingStore {
  let refusal: (() => Error) | undefined;
  const underWay = new Set<Promise<unknown>>();
  /** What `loadForJob` read, until a load of its session takes it (or a write makes it stale). */
  let kept: KeptLoad | undefined;
  const append = (sessionId: string, entries: readonly SessionEntry[], options: SessionAppendOptions): Promise<void> => {
    kept = undefined;
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
    load: (sessionId, options) => {
      const replay = kept?.sessionId === sessionId ? kept : undefined;
      if (replay === undefined) return store.load(sessionId, options);
      kept = undefined;
      return replayKeptLoad(replay, options);
    },
    list: () => store.list(),
    delete: (sessionId) => {
      kept = undefined;
      return store.delete(sessionId);
    },
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
    loadForJob: async (sessionId) => {
      kept = undefined;
      const keeping: KeptLoad = { sessionId, entries: [], warnings: [], batched: false };
      const { entries } = await loadTranscript({ ...wrapped, load: (id, options) => keepingLoad(store, id, options, keeping) }, sessionId);
      kept = keeping;
      return entries;
    },
  };
}
