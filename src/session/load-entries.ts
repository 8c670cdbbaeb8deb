import { assertSupportedEntry, isSupportedEntry } from './assert-supported-entry.js';
import { placelessJson as placeless } from './entry-id-clash.js';
import { SessionStoreCorruptError } from '../errors/session-store-corrupt-error.js';
import type { SessionEntry } from '../state/entries.js';
import { entrySeq } from '../state/entry-seq.js';
import { storeEntries } from './store-entries.js';
import { entryBatchesOf } from './entry-batches.js';
import { EntryIds } from './entry-ids.js';
import type { SessionLoadOptions, SessionStore } from './session-store.js';

/** The loaded entry numbered `seq`, found by halving (loaded entries are in increasing order). */
function loadedAt(entries: readonly SessionEntry[], seq: number): SessionEntry | undefined {
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const found = entries[middle]!.seq;
    if (found === seq) return entries[middle];
    if (found < seq) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/** An entry's kind as an error or a warning names it. */
function kindOf(entry: SessionEntry): string {
  return typeof entry.kind === 'string' ? entry.kind.slice(0, 40) : 'unknown kind';
}

/** A session's transcript as {@link loadTranscript} reads it. */
export interface LoadedTranscript {
  /** The entries to apply, in order, each once. */
  entries: SessionEntry[];
  /**
   * The session's revision: the `seq` of the last entry the store holds, which is that of the last
   * of `entries` unless the store's last entry was a copy that was skipped.
   */
  revision: number;
  /** The id of the store's last entry (the `parentId` of the next), or null for none. */
  lastId: string | null;
  /** Numbers of entries skipped as copies stored under a new number; not gaps in the transcript. */
  copies: number[];
  /**
   * True when the entries were parsed for this load alone (a library store's): nothing else holds
   * them, so a fold may take their objects as they are (`foldOwnedEntries`).
   */
  owned: boolean;
}

/**
 * Loads a session's whole transcript, checking each entry's version (a custom store might not)
 * and numbering entries written before entries carried a `seq`. Entries must come in increasing
 * order: a line repeated word for word (a transcript edited by hand, a copy pasted twice) is
 * skipped with a warning, as applying it again would repeat a message or a call; an entry whose
 * number does not follow the one before (lines moved, a number changed) fails the load. An entry
 * is also known by its id: one stored again under a new number (a line copied with a new `seq`, a
 * row a store wrote twice) is skipped with a warning when it is the same entry, and fails the
 * load when the id was reused for something else. An entry right after another that names as its
 * parent an entry the session never held (copied from another session, edited) fails the load, and
 * so does an entry written for another session (its `sessionId`: a transcript copied whole).
 * @throws SessionStoreCorruptError for an entry out of order, or one with the id of an earlier entry and other content, naming both.
 */
export async function loadTranscript(store: SessionStore, sessionId: string, options: SessionLoadOptions = {}): Promise<LoadedTranscript> {
  const entries: SessionEntry[] = [];
  // The seq of each loaded entry by id (hashes: the entry loaded there tells the very id).
  const seqOfId = new EntryIds();
  /** The seq of the loaded entry with the id `id`, if any. */
  const loadedWithId = (id: string): number | undefined => {
    for (const seq of seqOfId.seqsOf(id)) if (loadedAt(entries, seq)?.id === id) return seq;
    return undefined;
  };
  const copies: number[] = [];
  let revision = 0;
  let lastId: string | null = null;
  /** Takes one entry, in order. */
  const take = (entry: SessionEntry): void => {
    // Named only when it fails: a long transcript would build a string per entry.
    if (!isSupportedEntry(entry)) assertSupportedEntry(entry, sessionId, `transcript entry ${entries.length + copies.length + 1} of session "${sessionId}"`);
    const seq = entrySeq(entry, revision);
    // Every entry is written with the id of the session it is appended to (a fork and a
    // subagent's sidechain too): another id means the line was copied from another session.
    const ownerId = (entry as { sessionId?: unknown }).sessionId;
    if (typeof ownerId === 'string' && ownerId !== sessionId) {
      throw new SessionStoreCorruptError({
        sessionId,
        location: `transcript entry ${seq} (${kindOf(entry)})`,
        problem: `${typeof entry.id === 'string' ? `(id ${JSON.stringify(entry.id.slice(0, 80))}) ` : ''}belongs to session ${JSON.stringify(ownerId.slice(0, 80))}: it (or the whole transcript) was copied from another session`,
        repair: `Remove the entries of the other session, or restore the session from a backup or a snapshot; to start a session from another one's history, resume that one and call agent.fork().`,
      });
    }
    if (seq <= revision) {
      const earlier = loadedAt(entries, seq);
      if (earlier !== undefined && JSON.stringify(earlier) === JSON.stringify(entry)) {
        options.onWarning?.({ sessionId, seq, message: `Session "${sessionId}": transcript entry ${seq} (${kindOf(entry)}) is stored twice; the copy after entry ${revision} was skipped.` });
        return;
      }
      throw new SessionStoreCorruptError({
        sessionId,
        location: `transcript entry ${seq} (${kindOf(entry)})`,
        problem: `is stored after entry ${revision}: entries are out of order, or an entry's seq was changed`,
        repair: 'The transcript was edited; put its lines back in the order of their seq numbers, or restore the session from a backup or a snapshot.',
      });
    }
    // The entry right after another names it as its parent: one naming an entry the session never
    // held was copied from another session or edited (a gap, where a damaged line was skipped, is
    // not checked: its parent is the entry lost).
    const parentId = (entry as { parentId?: unknown }).parentId;
    if (typeof parentId === 'string' && revision > 0 && seq === revision + 1 && lastId !== null && parentId !== lastId && loadedWithId(parentId) === undefined) {
      throw new SessionStoreCorruptError({
        sessionId,
        location: `transcript entry ${seq} (${kindOf(entry)})`,
        problem: `names ${JSON.stringify(parentId.slice(0, 80))} as the entry before it, which the session does not hold (entry ${revision} is ${JSON.stringify(lastId.slice(0, 80))}): it was copied from another session or edited`,
        repair: `Remove entry ${seq} if it does not belong to the session, or restore the session from a backup or a snapshot.`,
      });
    }
    const firstSeq = typeof entry.id === 'string' ? loadedWithId(entry.id) : undefined;
    if (firstSeq !== undefined) {
      const earlier = loadedAt(entries, firstSeq)!;
      if (placeless(earlier) !== placeless(entry)) {
        throw new SessionStoreCorruptError({
          sessionId,
          location: `transcript entry ${seq} (${kindOf(entry)})`,
          problem: `has the id ${JSON.stringify(entry.id)} of entry ${firstSeq} (${earlier.kind}) but other content: two entries cannot be told apart`,
          repair: `The transcript was edited or a store wrote a wrong entry; remove entry ${seq} (or restore the session from a backup or a snapshot).`,
        });
      }
      // The same entry again (a line copied with a new number, a row written twice): applying it
      // again would repeat a message or a call. The session's revision still counts it.
      options.onWarning?.({ sessionId, seq, message: `Session "${sessionId}": transcript entry ${seq} (${kindOf(entry)}) is a copy of entry ${firstSeq} stored under a new number; the copy was skipped.` });
      copies.push(seq);
      revision = seq;
      lastId = entry.id;
      return;
    }
    if (typeof entry.id === 'string') seqOfId.add(entry.id, seq);
    revision = seq;
    lastId = typeof entry.id === 'string' ? entry.id : null;
    if (entry.seq !== revision) entry.seq = revision;
    entries.push(entry);
  };
  const loaded = storeEntries(store, sessionId, options);
  // A library store hands its entries over in arrays: one step of the loop per array, not per entry.
  const batches = entryBatchesOf(loaded);
  if (batches !== undefined) {
    for await (const batch of batches) for (const entry of batch) take(entry);
  } else {
    for await (const entry of loaded) take(entry);
  }
  return { entries, revision, lastId, copies, owned: batches !== undefined };
}

/**
 * The entries of {@link loadTranscript}: a session's whole transcript, each entry once.
 * @throws SessionStoreCorruptError for an entry out of order, or one with the id of an earlier entry and other content.
 */
export async function loadEntries(store: SessionStore, sessionId: string, options: SessionLoadOptions = {}): Promise<SessionEntry[]> {
  return (await loadTranscript(store, sessionId, options)).entries;
}
