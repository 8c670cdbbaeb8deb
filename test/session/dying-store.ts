import type { SessionStore } from 'agent-harness';

/** Options of {@link dyingStore}. */
export interface DyingStoreOptions {
  /**
   * What `cut` counts. `append` (the default): the store takes the first `cut - 1` appends whole
   * and refuses the rest, as a kill -9 cuts a store whose append is all-or-nothing (a
   * transaction, one `write` of a few lines). `entry`: it takes the first `cut - 1` entries,
   * the last append it takes cut short, as a torn write (or a host's store that writes an
   * append's entries one by one) can leave it; the journal hands several entries to one append,
   * so this reaches the states between them that appends alone no longer do.
   */
  unit?: 'append' | 'entry';
}

/**
 * A store over `inner` for crash-point tests: it stores what comes before `cut` and refuses
 * everything later, as if the process died there. `appends()` counts the appends tried and
 * `entries()` the entries they held, so a test knows when a flow had fewer than `cut`.
 */
export function dyingStore(inner: SessionStore, cut: number, options: DyingStoreOptions = {}): { store: SessionStore; appends: () => number; entries: () => number } {
  let appends = 0;
  let entries = 0;
  let dead = false;
  const store: SessionStore = {
    append: async (sessionId, batch, appendOptions) => {
      appends += 1;
      const before = entries;
      entries += batch.length;
      if (dead) throw new Error('the process died');
      if (options.unit === 'entry') {
        if (entries < cut) return inner.append(sessionId, batch, appendOptions);
        dead = true;
        // The entries before the cut land; the process dies before the rest.
        const taken = batch.slice(0, cut - 1 - before);
        if (taken.length > 0) await inner.append(sessionId, taken, appendOptions);
        throw new Error('the process died');
      }
      if (appends >= cut) throw new Error('the process died');
      return inner.append(sessionId, batch, appendOptions);
    },
    load: (sessionId, loadOptions) => inner.load(sessionId, loadOptions),
    list: () => inner.list(),
    delete: (sessionId) => inner.delete(sessionId),
    close: async (sessionId) => inner.close?.(sessionId),
  };
  return { store, appends: () => appends, entries: () => entries };
}
