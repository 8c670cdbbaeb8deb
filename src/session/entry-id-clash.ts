import { ConfigurationError } from '../errors/configuration-error.js';
import type { SessionEntry } from '../state/entries.js';

/**
 * An entry's content apart from where it is stored (its number and the entry before it), as JSON
 * with object keys sorted: stores that reorder keys (PostgreSQL's jsonb) still compare equal.
 */
export function placelessJson(entry: SessionEntry): string {
  return JSON.stringify({ ...entry, seq: 0, parentId: null }, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

/** Where an appended entry's id is already taken. */
export interface EntryIdClash {
  /** The id both entries carry. */
  id: string;
  /** The `seq` of the entry that holds the id (stored, or earlier in the same append). */
  storedSeq: number;
  /** The `seq` the appended entry would take. */
  seq: number;
}

/**
 * Whether `appended` takes the id of `stored` for other content: a transcript in which two
 * entries cannot be told apart, which no load can apply (it fails with `SessionStoreCorruptError`).
 * The same entry again under a new number (same content, another `seq` and `parentId`) is no
 * clash: loading skips it as a copy.
 */
export function clashesWith(stored: SessionEntry, appended: SessionEntry): boolean {
  return placelessJson(stored) !== placelessJson(appended);
}

/**
 * The refusal of an append one of whose entries has the id of another entry of the session.
 * @param storeName Names the store, e.g. `memorySessionStore`.
 */
export function entryIdClashError(storeName: string, sessionId: string, clash: EntryIdClash): ConfigurationError {
  return new ConfigurationError(
    `${storeName}.append got entry ${clash.seq} of session "${sessionId}" with the id ${JSON.stringify(clash.id)}, which entry ${clash.storedSeq} already has with other content: ` +
      'two entries of a session cannot share an id (the session could no longer be loaded). Nothing was stored. Give every entry its own id (as the library\'s writers do: random ids).',
  );
}

/**
 * The first clash within one append's entries (an id given twice, with other content), so every
 * store refuses it before it reads anything.
 * @param seqs The `seq` each entry takes.
 */
export function clashWithinAppend(entries: readonly SessionEntry[], seqs: readonly number[]): EntryIdClash | undefined {
  if (entries.length < 2) return undefined;
  const first = new Map<string, number>();
  for (const [index, entry] of entries.entries()) {
    const id = (entry as { id?: unknown }).id;
    if (typeof id !== 'string') continue;
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, index);
    else if (clashesWith(entries[earlier]!, entry)) return { id, storedSeq: seqs[earlier]!, seq: seqs[index]! };
  }
  return undefined;
}
