import { assertSupportedEntry } from './assert-supported-entry.js';
import { SessionStoreCorruptError } from '../errors/session-store-corrupt-error.js';
import type { SessionEntry } from '../state/entries.js';
import { entrySeq } from '../state/entry-seq.js';
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

/**
 * Loads a session's whole transcript, checking each entry's version (a custom store might not)
 * and numbering entries written before entries carried a `seq`. Entries must come in increasing
 * order: a line repeated word for word (a transcript edited by hand, a copy pasted twice) is
 * skipped with a warning, as applying it again would repeat a message or a call; an entry whose
 * number does not follow the one before (lines moved, a number changed) fails the load.
 * @throws SessionStoreCorruptError for an entry out of order, naming it and the entry before it.
 */
export async function loadEntries(store: SessionStore, sessionId: string, options: SessionLoadOptions = {}): Promise<SessionEntry[]> {
  const entries: SessionEntry[] = [];
  let revision = 0;
  for await (const entry of store.load(sessionId, options)) {
    assertSupportedEntry(entry, `transcript entry ${entries.length + 1} of session "${sessionId}"`);
    const seq = entrySeq(entry, revision);
    if (seq <= revision) {
      const earlier = loadedAt(entries, seq);
      if (earlier !== undefined && JSON.stringify(earlier) === JSON.stringify(entry)) {
        options.onWarning?.({ sessionId, seq, message: `Session "${sessionId}": transcript entry ${seq} (${String(entry.kind).slice(0, 40)}) is stored twice; the copy after entry ${revision} was skipped.` });
        continue;
      }
      throw new SessionStoreCorruptError({
        sessionId,
        location: `transcript entry ${seq} (${typeof entry.kind === 'string' ? entry.kind.slice(0, 40) : 'unknown kind'})`,
        problem: `is stored after entry ${revision}: entries are out of order, or an entry's seq was changed`,
        repair: 'The transcript was edited; put its lines back in the order of their seq numbers, or restore the session from a backup or a snapshot.',
      });
    }
    revision = seq;
    if (entry.seq !== revision) entry.seq = revision;
    entries.push(entry);
  }
  return entries;
}
