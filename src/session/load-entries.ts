import { assertSupportedEntry } from './assert-supported-entry.js';
import type { SessionEntry } from '../state/entries.js';
import { entrySeq } from '../state/entry-seq.js';
import type { SessionLoadOptions, SessionStore } from './session-store.js';

/**
 * Loads a session's whole transcript, checking each entry's version (a custom store might not)
 * and numbering entries written before entries carried a `seq`.
 */
export async function loadEntries(store: SessionStore, sessionId: string, options: SessionLoadOptions = {}): Promise<SessionEntry[]> {
  const entries: SessionEntry[] = [];
  let revision = 0;
  for await (const entry of store.load(sessionId, options)) {
    assertSupportedEntry(entry, `transcript entry ${entries.length + 1} of session "${sessionId}"`);
    revision = entrySeq(entry, revision);
    if (entry.seq !== revision) entry.seq = revision;
    entries.push(entry);
  }
  return entries;
}
