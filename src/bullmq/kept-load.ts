import type { SessionEntry } from '../state/entries.js';
import type { SessionLoadOptions, SessionStore, SessionStoreWarning } from '../session/session-store.js';
import { batchedEntries, entryBatchesOf } from '../session/entry-batches.js';
import { pickLastCheckpoint } from '../session/pick-checkpoint-start.js';
import { storeEntries } from '../session/store-entries.js';

/** What one load of a session read from the store: its entries as the store yielded them, and its warnings. */
export interface KeptLoad {
  sessionId: string;
  /** The entries, in the order the store yielded them. */
  entries: SessionEntry[];
  /** The store's warnings, each after the entries the store yielded before it (`at` of them). */
  warnings: { at: number; warning: SessionStoreWarning }[];
  /** The store handed its entries over in arrays (a library store's): the replay does too. */
  batched: boolean;
}

/**
 * `store.load` of `sessionId`, whose entries and warnings are also kept in `kept` as they pass (a
 * warning is kept, not given: the replay gives it). For {@link replayKeptLoad}.
 */
export function keepingLoad(store: SessionStore, sessionId: string, options: SessionLoadOptions | undefined, kept: KeptLoad): AsyncIterable<SessionEntry> {
  const loaded = storeEntries(store, sessionId, { ...options, onWarning: (warning) => void kept.warnings.push({ at: kept.entries.length, warning }) });
  const batches = entryBatchesOf(loaded);
  if (batches !== undefined) {
    kept.batched = true;
    return batchedEntries(async function* () {
      for await (const batch of batches) {
        kept.entries.push(...batch);
        yield batch;
      }
    });
  }
  return (async function* () {
    for await (const entry of loaded) {
      kept.entries.push(entry);
      yield entry;
    }
  })();
}

/**
 * A load of `kept.sessionId` that reads nothing: it yields what the kept load read, with the
 * store's warnings in their places, as a load at the moment of that one. With `fromCheckpoint`, it
 * starts at the checkpoint a store would (the agent's last one that directly follows the entry
 * before it, no copy of an earlier entry), and gives no warning about what is before it; else,
 * or without such a checkpoint, it yields everything.
 */
export function replayKeptLoad(kept: KeptLoad, options: SessionLoadOptions | undefined): AsyncIterable<SessionEntry> {
  const { entries, warnings } = kept;
  const batches = async function* (): AsyncGenerator<readonly SessionEntry[], void, undefined> {
    const start = options?.fromCheckpoint ? await checkpointStart(entries, options.fromCheckpoint) : 0;
    let next = start;
    for (const { at, warning } of warnings) {
      if (at <= start && start > 0) continue;
      if (at > next) {
        yield entries.slice(next, at);
        next = at;
      }
      options?.onWarning?.(warning);
    }
    if (next < entries.length) yield entries.slice(next);
  };
  if (kept.batched) return batchedEntries(batches);
  return (async function* () {
    for await (const batch of batches()) yield* batch;
  })();
}

/** The index of the entry a load asked to start at the agent's last checkpoint starts at (0: the first). */
async function checkpointStart(entries: readonly SessionEntry[], hint: NonNullable<SessionLoadOptions['fromCheckpoint']>): Promise<number> {
  const lastFirst = function* (): Generator<number> {
    for (let index = entries.length - 1; index > 0; index--) if (entries[index]!.kind === 'checkpoint') yield index;
  };
  const picked = await pickLastCheckpoint(lastFirst(), hint, {
    first: () => entries[0],
    entry: (index) => entries[index],
    before: (index) => entries[index - 1],
    copied: (entry, index) => entries.findIndex((earlier) => earlier.id === entry.id) < index,
  });
  return picked?.candidate ?? 0;
}
