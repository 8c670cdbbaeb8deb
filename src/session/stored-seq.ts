import type { SessionEntry } from '../state/entries.js';
import type { SessionStoreWarning } from './session-store.js';

/**
 * An entry as its store numbered it: a version-2 entry whose own `seq` was edited (a hand edit of
 * a row or a list element) is loaded with the store's number, and a warning says so — else the
 * session's next append would be refused as a conflict forever. A version-1 entry (which carries no
 * `seq`) is given the store's number.
 */
export function withStoredSeq(entry: SessionEntry, seq: number, sessionId: string, where: string, onWarning: ((warning: SessionStoreWarning) => void) | undefined): SessionEntry {
  if (entry.seq === seq) return entry;
  // Version-1 entries carry no seq: numbered by where the store keeps them, not by their count
  // (a row deleted before one would shift every later number, and the revision with them).
  if (entry.$schemaVersion === 1 && (entry as { seq?: unknown }).seq === undefined) return { ...entry, seq };
  onWarning?.({ sessionId, seq, message: `Entry ${seq} of ${where} says it is entry ${JSON.stringify(entry.seq)}; loaded it as entry ${seq}, where the store keeps it.` });
  return { ...entry, seq };
}
