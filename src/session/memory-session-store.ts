import { ConfigurationError } from '../errors/configuration-error.js';
import { SessionConflictError } from '../errors/session-conflict-error.js';
import { assertSupportedEntry } from './assert-supported-entry.js';
import { entrySeq } from '../state/entry-seq.js';
import type { SessionEntry } from '../state/entries.js';
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
  /** Each session's revision: the `seq` of its last entry. */
  const revisions = new Map<string, number>();

  return {
    async append(sessionId, entries, options) {
      assertSessionId(sessionId);
      const expectedRevision = options?.expectedRevision;
      if (!Number.isInteger(expectedRevision) || expectedRevision! < 0) {
        throw new ConfigurationError(`memorySessionStore.append needs options.expectedRevision, the revision the writer last saw (0 for a new session), got ${JSON.stringify(expectedRevision)}.`);
      }
      // Clone everything before storing anything, so a clone failure stores nothing.
      const copies = entries.map((entry) => structuredClone(entry));
      // Nothing to store: nothing checked (as in every store).
      if (copies.length === 0) return;
      const stored = sessions.get(sessionId);
      const revision = revisions.get(sessionId) ?? 0;
      // Checked and appended with no await in between: the compare-and-append is atomic.
      if (revision !== expectedRevision) throw new SessionConflictError({ sessionId, expectedRevision: expectedRevision!, actualRevision: revision });
      if (stored === undefined) sessions.set(sessionId, copies);
      else stored.push(...copies);
      revisions.set(sessionId, copies.reduce((previous, entry) => entrySeq(entry, previous), revision));
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
      revisions.delete(sessionId);
    },

    async close(sessionId) {
      assertSessionId(sessionId);
    },
  };
}
