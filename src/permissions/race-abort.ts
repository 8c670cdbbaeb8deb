/** The value of a raced promise, or the fact that the signal aborted first. */
export type Raced<T> = { aborted: false; value: T } | { aborted: true };

/**
 * Waits for `work` or for `signal` to abort, whichever comes first. A rejection of `work` is
 * rethrown when it wins and swallowed when it arrives after the abort. The abort listener is
 * removed either way.
 */
export async function raceAbort<T>(work: () => T | Promise<T>, signal: AbortSignal): Promise<Raced<T>> {
  if (signal.aborted) return { aborted: true };
  const running = Promise.resolve()
    .then(work)
    .then((value): Raced<T> => ({ aborted: false, value }));
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<Raced<T>>((resolve) => {
    onAbort = () => resolve({ aborted: true });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  running.catch(() => undefined);
  try {
    return await Promise.race([running, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}
