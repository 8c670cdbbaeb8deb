import type { TranscriptWriter } from './journal.js';

/** How long an interrupted run or `close()` waits on one unanswered store write by default. */
export const DEFAULT_STORE_WRITE_GRACE_MS = 30_000;

/** The least time between two looks at the store, so a grace of 0 does not spin. */
const MIN_CHECK_MS = 100;

/**
 * Bounds the wait on a store that stopped answering, once the host no longer wants the run (an
 * interrupt, `close()`): a write left unanswered for `graceMs` is given up (`failure()` becomes the
 * journal's failure, so the run ends with a `SessionWriteError` and nothing more is written),
 * instead of holding the run, and every `await run.result`, forever. A store that answers in time
 * changes nothing. The store is looked at again at least every 100 ms, so a grace below that
 * waits up to 100 ms.
 * @returns a function that stops watching (call it once the run has ended).
 */
export function boundWrites(journal: TranscriptWriter, graceMs: number, failure: () => Error): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = (): void => {
    const since = journal.writingSince;
    const waited = since === undefined ? 0 : Date.now() - since;
    if (since !== undefined && waited >= graceMs) {
      timer = undefined;
      journal.abandon(failure());
      return;
    }
    timer = setTimeout(check, Math.max(graceMs - waited, MIN_CHECK_MS));
  };
  check();
  return () => clearTimeout(timer);
}
