import { assertSupportedEntry } from './assert-supported-entry.js';
import type { SessionEntry } from './entries.js';
import type { SessionLoadOptions, SessionStore } from './session-store.js';

/** Loads a session's whole transcript, checking each entry's version (a custom store might not). */
export async function loadEntries(store: SessionStore, sessionId: string, options: SessionLoadOptions = {}): Promise<SessionEntry[]> {
  const entries: SessionEntry[] = [];
  for await (const entry of store.load(sessionId, options)) {
    assertSupportedEntry(entry, `transcript entry ${entries.length + 1} of session "${sessionId}"`);
    entries.push(entry);
  }
  return entries;
}
