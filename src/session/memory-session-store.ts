import { ConfigurationError } from '../errors/configuration-error.js';
import { assertSupportedEntry } from './assert-supported-entry.js';
import type { SessionEntry } from './entries.js';
import type { SessionStore } from './session-store.js';

function assertSessionId(sessionId: unknown): asserts sessionId is string {
  if (typeof sessionId !== 'string' || sessionId.length === 0) {
    throw new ConfigurationError(`Invalid session id ${JSON.stringify(sessionId)}: a session id must be a non-empty string, e.g. "session_V1StGXR8Z5jdHi6B".`);
  }
}

/**
 * A session store that keeps transcripts in memory, for tests and short-lived agents. Entries
 * are copied (`structuredClone`) on the way in and on the way out, so neither the caller nor a
 * reader can change what is stored. Nothing survives the process.
 * @throws ConfigurationError (from its methods) for an empty or non-string session id.
 * @example
 * const store = memorySessionStore();
 * const agent = createAgent({ model, store });
 */
export function memorySessionStore(): SessionStore {
  const sessions = new Map<string, SessionEntry[]>();

  return {
    async append(sessionId, entries) {
      assertSessionId(sessionId);
      // Clone everything before storing anything, so a clone failure stores nothing.
      const copies = entries.map((entry) => structuredClone(entry));
      if (copies.length === 0) return;
      const stored = sessions.get(sessionId);
      if (stored === undefined) sessions.set(sessionId, copies);
      else stored.push(...copies);
    },

    async *load(sessionId) {
      assertSessionId(sessionId);
      // What was stored when loading began; appends made while iterating are not seen.
      const stored = sessions.get(sessionId)?.slice() ?? [];
      for (const [index, entry] of stored.entries()) {
        assertSupportedEntry(entry, `transcript entry ${index + 1} of session "${sessionId}"`);
        yield structuredClone(entry);
      }
    },

    async list() {
      return [...sessions.keys()];
    },

    async delete(sessionId) {
      assertSessionId(sessionId);
      sessions.delete(sessionId);
    },

    async close(sessionId) {
      assertSessionId(sessionId);
    },
  };
}
