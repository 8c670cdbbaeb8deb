import type { SessionStore } from 'agent-harness';

/**
 * A store over `inner` for crash-point tests: it stores the first `cut - 1` appends and refuses
 * every later one, as if the process died at append `cut` (a kill -9 cuts between appends).
 * `appends()` counts the appends tried, so a test knows when a flow had fewer than `cut`.
 */
export function dyingStore(inner: SessionStore, cut: number): { store: SessionStore; appends: () => number } {
  let appends = 0;
  const store: SessionStore = {
    append: async (sessionId, entries, options) => {
      appends += 1;
      if (appends >= cut) throw new Error('the process died');
      return inner.append(sessionId, entries, options);
    },
    load: (sessionId, options) => inner.load(sessionId, options),
    list: () => inner.list(),
    delete: (sessionId) => inner.delete(sessionId),
    close: async (sessionId) => inner.close?.(sessionId),
  };
  return { store, appends: () => appends };
}
