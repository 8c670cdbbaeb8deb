import type { SessionEntry } from '../state/entries.js';
import type { SessionStoreWarning } from './session-store.js';

/**
 * An entry as its store numbered it: a version-2 entry whose own `seq` was edited (a hand edit of
 * a row or a list element) is loaded with the store's number, and a warning says so — else the
 * session's next append would be refused as a conflict forever. Version-1 entries carry no `seq`.
 */
export function withStoredSeq(entry: SessionEntry, seq: number, sessionId: string, where: string, onWarning: ((warning: SessionStoreWarning) => void) | undefined): SessionEntry {
  if (entry.$schemaVersion === 1 || entry.seq === seq) return entry;
  onWarning?.({ sessionId, seq, message: `Entry ${seq} of ${where} says it is entry ${JSON.stringify(entry.seq)}; loaded it as entry ${seq}, where the store keeps it.` });
  return { ...entry, seq };
}
