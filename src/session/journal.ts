import { nanoid } from 'nanoid';
import { ENTRY_SCHEMA_VERSION, type EntryBase, type SessionEntry } from './entries.js';
import type { SessionStore } from './session-store.js';

/** An entry before the journal stamps it. */
export type EntryDraft = SessionEntry extends infer E ? (E extends SessionEntry ? Omit<E, keyof EntryBase> & { agentId?: string } : never) : never;

/**
 * Writes a session's transcript in order: every `record` is appended after the ones before it,
 * and `after(fn)` runs `fn` only once everything recorded before it is stored. The agent delivers
 * events through `after`, so an event is never seen before its entry is stored.
 */
export class Journal {
  private readonly store: SessionStore;
  private readonly sessionId: string;
  private readonly agentId: string | undefined;
  private lastId: string | null;
  private tail: Promise<void> = Promise.resolve();
  /** The first append failure; once set, nothing more is written. */
  failure: Error | undefined;

  constructor(store: SessionStore, sessionId: string, agentId: string | undefined, lastId: string | null) {
    this.store = store;
    this.sessionId = sessionId;
    this.agentId = agentId;
    this.lastId = lastId;
  }

  /** Stamps entries (id, parent, time, version) and queues them for appending, in order. */
  record(...drafts: EntryDraft[]): void {
    if (drafts.length === 0) return;
    const entries = drafts.map((draft) => {
      const id = nanoid(12);
      const entry = {
        $schemaVersion: ENTRY_SCHEMA_VERSION,
        id,
        parentId: this.lastId,
        timestamp: new Date().toISOString(),
        sessionId: this.sessionId,
        ...(this.agentId !== undefined ? { agentId: this.agentId } : {}),
        ...draft,
      } as SessionEntry;
      this.lastId = id;
      return entry;
    });
    this.tail = this.tail.then(async () => {
      if (this.failure) return;
      try {
        await this.store.append(this.sessionId, entries);
      } catch (error) {
        this.failure = error instanceof Error ? error : new Error(String(error));
      }
    });
  }

  /** Runs `fn` after everything recorded so far is stored (or failed). */
  after(fn: () => void): void {
    this.tail = this.tail.then(fn, fn);
  }

  /** Resolves when everything recorded so far is stored (or failed). */
  flush(): Promise<void> {
    return this.tail;
  }
}
