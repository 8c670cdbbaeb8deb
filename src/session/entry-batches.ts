import type { SessionEntry } from '../state/entries.js';

/**
 * The method by which what a library store's `load` returns also hands its entries over in
 * arrays. Resuming reads every entry of a transcript, and each step of an async generator costs
 * promises and a turn of the microtask queue: thousands of entries read one by one cost more than
 * parsing them. Not part of the package's API: a store of the host's own yields entries one by one,
 * as `SessionStore.load` says, and is read that way.
 */
export const ENTRY_BATCHES: unique symbol = Symbol('agent-harness entry batches');

/** Entries a library store yields in arrays: at most this many per array. */
export const ENTRY_BATCH_SIZE = 256;

/** What a library store's `load` returns: an async generator of entries, also readable in arrays. */
export type BatchedEntries = AsyncGenerator<SessionEntry, void, undefined> & {
  /** The same entries, in order, in arrays (none empty); a new read each call. */
  [ENTRY_BATCHES](): AsyncGenerator<readonly SessionEntry[], void, undefined>;
};

/**
 * A load's result from `batches`, a generator of arrays that starts reading when first asked (as
 * an `async *load()` does): read by `for await` it yields the entries one by one, and a reader
 * that knows {@link ENTRY_BATCHES} takes the arrays. An array must be yielded before a warning is
 * given or an error thrown for what follows it, so that either reader sees them in the same order.
 */
export function batchedEntries(batches: () => AsyncGenerator<readonly SessionEntry[], void, undefined>): BatchedEntries {
  return Object.assign(entriesOf(batches()), { [ENTRY_BATCHES]: batches });
}

/** The entries of `batches`, one by one, in order (for a reader of single entries). */
export async function* entriesOf(batches: AsyncIterable<readonly SessionEntry[]>): AsyncGenerator<SessionEntry, void, undefined> {
  for await (const batch of batches) for (const entry of batch) yield entry;
}

/** The arrays of a load's result made by {@link batchedEntries}, or undefined for any other (a host's store). */
export function entryBatchesOf(loaded: unknown): AsyncGenerator<readonly SessionEntry[], void, undefined> | undefined {
  const batches = (loaded as Partial<BatchedEntries> | null)?.[ENTRY_BATCHES];
  return typeof batches === 'function' ? batches.call(loaded) : undefined;
}

/**
 * Entries `make(0)` to `make(count - 1)` in arrays of up to {@link ENTRY_BATCH_SIZE}, each made
 * when its array is. When `make` throws, the entries made before it are yielded first, then the
 * error: what a generator yielding them one by one would do.
 */
export function* entriesInBatches(count: number, make: (index: number) => SessionEntry): Generator<SessionEntry[], void, undefined> {
  let batch: SessionEntry[] = [];
  for (let index = 0; index < count; index++) {
    let entry: SessionEntry;
    try {
      entry = make(index);
    } catch (error) {
      if (batch.length > 0) yield batch;
      throw error;
    }
    batch.push(entry);
    if (batch.length === ENTRY_BATCH_SIZE) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
