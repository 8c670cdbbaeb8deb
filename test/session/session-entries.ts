import type { MessageEntry, SessionEntry } from '../../src/state/entries.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { loadEntries } from '../../src/session/load-entries.js';

/** Builds stored-shape transcript entries for store tests. */
export function makeEntries(sessionId: string) {
  let count = 0;
  let parentId: string | null = null;
  return function message(text: string): MessageEntry {
    count += 1;
    const entry: MessageEntry = {
      $schemaVersion: 2,
      id: `entry-${count}`,
      parentId,
      seq: count,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, count)).toISOString(),
      sessionId,
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text }] },
    };
    parentId = entry.id;
    return entry;
  };
}

/** Everything a load yields. */
export async function loadAll(iterable: AsyncIterable<SessionEntry>): Promise<SessionEntry[]> {
  const entries: SessionEntry[] = [];
  for await (const entry of iterable) entries.push(entry);
  return entries;
}

/** The text of a message entry made by {@link makeEntries}. */
export function textOf(entry: SessionEntry): string {
  if (entry.kind !== 'message') throw new Error(`not a message entry: ${entry.kind}`);
  const block = (entry.message.content as Array<{ type: string; text?: string }>)[0];
  return block?.text ?? '';
}

/**
 * Appends entries made by {@link makeEntries} where they belong: the store's revision is expected
 * to be the one just before the first entry's `seq` (0 for entries without one).
 */
export function appendEntries(store: SessionStore, sessionId: string, entries: readonly SessionEntry[]): Promise<void> {
  const first = entries[0] as { seq?: number } | undefined;
  return store.append(sessionId, entries, { expectedRevision: typeof first?.seq === 'number' ? first.seq - 1 : 0 });
}

/**
 * Appends one message entry the way a writer that has just loaded the session does: after the
 * store's current revision.
 */
export async function appendAsLoaded(store: SessionStore, sessionId: string, text: string): Promise<void> {
  const revision = (await loadEntries(store, sessionId)).at(-1)?.seq ?? 0;
  const entry = { ...makeEntries(sessionId)(text), id: `loaded-${revision + 1}`, seq: revision + 1 };
  await store.append(sessionId, [entry], { expectedRevision: revision });
}

/** The same store, its load read one entry at a time, as a host's own store is (the library's hand loads their entries over in arrays). */
export function oneByOne(store: SessionStore): SessionStore {
  return {
    ...store,
    async *load(sessionId, options) {
      yield* store.load(sessionId, options);
    },
  };
}
