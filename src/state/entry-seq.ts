import type { SessionEntry } from './entries.js';

/**
 * The `seq` of an entry read after one of revision `previous`: its own (version 2 entries), or
 * the next position (version 1 entries, written before entries were numbered). Loading and every
 * store count the same way, so a session's revision is the same whoever reads it.
 */
export function entrySeq(entry: Pick<SessionEntry, 'seq'> | { seq?: unknown }, previous: number): number {
  const seq = (entry as { seq?: unknown }).seq;
  return typeof seq === 'number' && Number.isInteger(seq) && seq > 0 ? seq : previous + 1;
}
