const listeners = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `listener` once when `signal` aborts (at once when it already has), and returns a
 * function that removes it. However many callers listen — one per tool call running in
 * parallel — the signal holds a single real listener, so Node never warns about a possible
 * listener leak (`MaxListenersExceededWarning`) when more than ten calls share a run.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  if (signal.aborted) {
    listener();
    return () => undefined;
  }
  let waiting = listeners.get(signal);
  if (!waiting) {
    const created = new Set<() => void>();
    listeners.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        listeners.delete(signal);
        for (const waiter of [...created]) waiter();
      },
      { once: true },
    );
    waiting = created;
  }
  const own = waiting;
  const entry = () => listener();
  own.add(entry);
  return () => void own.delete(entry);
}
