import type { MessageEntry, SessionEntry } from '../../src/session/entries.js';

/** Builds stored-shape transcript entries for store tests. */
export function makeEntries(sessionId: string) {
  let count = 0;
  let parentId: string | null = null;
  return function message(text: string): MessageEntry {
    count += 1;
    const entry: MessageEntry = {
      $schemaVersion: 1,
      id: `entry-${count}`,
      parentId,
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
