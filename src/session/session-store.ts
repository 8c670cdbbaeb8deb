import type { SessionEntry } from './entries.js';

/** A warning a store reports while loading (e.g. a torn last line after a crash). */
export interface SessionStoreWarning {
  sessionId: string;
  /** A sentence saying what was skipped and why. */
  message: string;
  /** 1-based line number for file stores. */
  line?: number;
}

/** Options of `load`. */
export interface SessionLoadOptions {
  /** Receives warnings (skipped torn lines, ...); loading never fails for them. */
  onWarning?: (warning: SessionStoreWarning) => void;
}

/**
 * Where transcripts live. Entries are appended in order and never rewritten. Implement it for
 * your own database; `memorySessionStore()` (core) and `fileSessionStore({ dir })`
 * (`agent-harness/node`) ship with the library.
 */
export interface SessionStore {
  /** Appends entries to a session, in order. Resolves once they are durable (as the store defines it). */
  append(sessionId: string, entries: readonly SessionEntry[]): Promise<void>;
  /** The session's entries in order; empty for an unknown session. */
  load(sessionId: string, options?: SessionLoadOptions): AsyncIterable<SessionEntry>;
  /** Ids of stored sessions. */
  list(): Promise<string[]>;
  /** Deletes a session's transcript; no-op when unknown. */
  delete(sessionId: string): Promise<void>;
  /** Releases what the store holds for a session (e.g. a file lock); the store may be used again after. */
  close?(sessionId: string): Promise<void>;
}
