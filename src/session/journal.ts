import { randomId } from '../ids/random-id.js';
import { ENTRY_SCHEMA_VERSION, type EntryDraft, type SessionEntry } from '../state/entries.js';
import type { SessionStore } from './session-store.js';
import { toError } from '../errors/describe-thrown.js';
import { nowIso } from './now-iso.js';

export type { EntryDraft };

/** Where a journal continues a stored transcript: its last entry's id and the session's revision. */
export interface JournalPosition {
  /** The id of the last stored entry, or null for an empty session. */
  lastId: string | null;
  /** The `seq` of the last stored entry, or 0 for an empty session. */
  revision: number;
}

/**
 * What an agent writes its transcript through: a session's {@link Journal}, or a subagent's
 * sidechain, which records into its parent's journal with the subagent's `agentId` on each entry.
 */
export interface TranscriptWriter {
  /** The revision the transcript has once everything recorded so far is stored. */
  readonly revision: number;
  /** The first append failure; once set, nothing more is written. */
  readonly failure: Error | undefined;
  /** Queues entries for appending, in order; the entries of one call are never split between appends. */
  record(...drafts: EntryDraft[]): void;
  /**
   * Holds the entries of a tool call's answer, and `announce` (its event), until the next
   * `record`, `after`, `flush` or read of `revision` — and with `until: 'write-ends'`, at the
   * latest until the append in flight ends (the entries would wait for it anyway). The user
   * message that carries the batch's results then goes in one append with them, and a
   * `tool-result` entry whose result that message carries is not stored (the message stores it).
   * Anything else takes the held entries first, in order, unchanged.
   * @param until - `'message'` for the answer that completes its batch (the message follows at
   * once); `'write-ends'` for an earlier answer given while an append is in flight.
   */
  hold(drafts: readonly EntryDraft[], announce: () => void, until: 'message' | 'write-ends'): void;
  /**
   * Runs `fn` once everything recorded so far is stored. When some of it was not (its write
   * failed, or came after a failure, or was given up), `fn` is dropped, unless `evenIfUnstored`:
   * for what announces nothing stored (the run's error and end).
   */
  after(fn: () => void, evenIfUnstored?: boolean): void;
  /** Resolves when everything recorded so far is stored (or failed). */
  flush(): Promise<void>;
  /** When (`Date.now()`) the append in flight was sent to the store; undefined when none is. */
  readonly writingSince: number | undefined;
  /** Gives up on the store: sets `failure` and ends the wait for the append in flight. */
  abandon(failure: Error): void;
}

/**
 * Writes a session's transcript in order: every `record` is appended after the ones before it,
 * each append conditional on the revision this journal last saw (a stale writer is refused by
 * the store with `SessionConflictError`), and `after(fn)` runs `fn` only once everything recorded
 * before it is stored. The agent delivers events through `after`, so an event is never seen
 * before its entry is stored, nor at all when its entry, or one before it, was not.
 *
 * An append takes every entry recorded before it starts (one append at a time, each started a
 * microtask after the one before it ends): what one step of the loop commits in a row costs the
 * store one write, a WAL flush or a round trip, not one per entry. So an event waits for the
 * append of its entry, which may hold later entries too, and a failed append drops the events of
 * all its entries.
 */
export class Journal implements TranscriptWriter {
  private readonly store: SessionStore;
  private readonly sessionId: string;
  private readonly agentId: string | undefined;
  private lastId: string | null;
  /** The `seq` of the last entry recorded (stored or queued). */
  private recorded: number;
  private tail: Promise<void> = Promise.resolve();
  /** Entries recorded and not handed to the store yet: the next append takes them all. */
  private queued: SessionEntry[] = [];
  /** An append is chained that has not started: what is recorded meanwhile joins it. */
  private appendQueued = false;
  /** The first append failure; once set, nothing more is written. */
  failure: Error | undefined;
  /** Set by the lease holder: carried by every append so a writer that lost its lease is refused. */
  fencingToken: number | undefined;
  /** Ends the wait for the append in flight (see {@link abandon}); undefined when none is. */
  private release: (() => void) | undefined;
  /** When (`Date.now()`) the append in flight was sent; undefined when none is. */
  writingSince: number | undefined;
  /** True once an entry recorded here was not stored (its append failed, came after a failure, or was given up). */
  private unstored = false;

  constructor(store: SessionStore, sessionId: string, agentId: string | undefined, position: JournalPosition = { lastId: null, revision: 0 }) {
    this.store = store;
    this.sessionId = sessionId;
    this.agentId = agentId;
    this.lastId = position.lastId;
    this.recorded = position.revision;
  }

  /** The revision the transcript has once everything recorded so far is stored (held entries included). */
  get revision(): number {
    this.appendHeld();
    return this.recorded;
  }

  /**
   * Stamps entries (id, parent, seq, time, version) and queues them for appending, in order.
   * Entries recorded before the queued append starts go with it: an append takes everything
   * recorded by then, so the entries of one step of the loop (an answer and the decisions on its
   * calls; the results and the message carrying them) cost the store one write, not one each.
   * Never split: the entries of one call are in one append.
   */
  record(...drafts: EntryDraft[]): void {
    if (drafts.length === 0) return;
    const announce = this.releaseHeld(drafts);
    this.stamp(drafts);
    this.startAppend();
    if (announce) this.afterStored(announce, false);
  }

  /**
   * Entries held by {@link hold}, not stamped yet, and the events announcing them; `atWriteEnd`
   * when some were held only until the append in flight ends.
   */
  private held: { drafts: EntryDraft[]; announce: Array<() => void>; atWriteEnd: boolean } | undefined;

  /**
   * Holds the entries of the answer that completes a batch, and its event, for the message that
   * carries the results (see {@link TranscriptWriter.hold}). A tool turn is then one append
   * fewer (the answer of an asynchronous tool went alone, a microtask before the message), and
   * its last result is stored once, not twice. An earlier answer given while an append is in
   * flight is held until that append ends at the latest (it would wait for it anyway): when the
   * batch completes first, the message takes it along too. A crash before that append loses what
   * it would lose a microtask earlier: the call is answered as interrupted on resume, never run
   * again.
   */
  hold(drafts: readonly EntryDraft[], announce: () => void, until: 'message' | 'write-ends'): void {
    const atWriteEnd = until === 'write-ends';
    if (this.held) {
      this.held.drafts.push(...drafts);
      this.held.announce.push(announce);
      if (atWriteEnd) this.held.atWriteEnd = true;
    } else this.held = { drafts: [...drafts], announce: [announce], atWriteEnd };
  }

  /**
   * Stamps the held entries (before `next`, the entries being recorded), leaving out each
   * `tool-result` whose result a user message in `next` carries (the same block: the message is
   * made from the batch's results), and returns the events that announce them, for the caller to
   * deliver once the append holding them is stored.
   */
  private releaseHeld(next: readonly EntryDraft[] | undefined): Array<() => void> | undefined {
    const held = this.held;
    if (held === undefined) return undefined;
    this.held = undefined;
    const carried = next === undefined ? undefined : carriedResults(next);
    this.stamp(carried === undefined ? held.drafts : held.drafts.filter((draft) => draft.kind !== 'tool-result' || !carried.has(draft.result)));
    return held.announce;
  }

  /**
   * Queues entries without starting an append: they go with the next one, which the next
   * `record`, `after` or `flush` starts. A new session's first checkpoint is recorded this way, so
   * it costs no write of its own (it joins the first run's start, or the first change made
   * before), and a session nobody used is not written at all until flushed.
   */
  recordLater(...drafts: EntryDraft[]): void {
    this.appendHeld();
    this.stamp(drafts);
  }

  /** Appends the held entries as they are, if any (their events once stored). */
  private appendHeld(): void {
    const announce = this.releaseHeld(undefined);
    if (announce === undefined) return;
    this.startAppend();
    this.afterStored(announce, false);
  }

  /** Starts an append of what is queued, unless one is already chained (then it joins that one). */
  private startAppend(): void {
    if (this.appendQueued || this.queued.length === 0) return;
    this.appendQueued = true;
    this.tail = this.tail.then(() => this.appendRecorded());
  }

  /** Stamps entries (id, parent, seq, time, version) and queues them. */
  private stamp(drafts: readonly EntryDraft[]): void {
    for (const draft of drafts) {
      const id = randomId(12);
      const entry = {
        $schemaVersion: ENTRY_SCHEMA_VERSION,
        id,
        parentId: this.lastId,
        seq: ++this.recorded,
        timestamp: nowIso(),
        sessionId: this.sessionId,
        ...(this.agentId !== undefined ? { agentId: this.agentId } : {}),
        ...draft,
      } as SessionEntry;
      this.lastId = id;
      this.queued.push(entry);
    }
  }

  /** Appends everything recorded so far, as one compare-and-append on the revision before it. */
  private async appendRecorded(): Promise<void> {
    this.appendQueued = false;
    const entries = this.queued;
    // The queue holds the last entries recorded: it continues the revision before them.
    const expectedRevision = this.recorded - entries.length;
    this.queued = [];
    if (this.failure) {
      this.unstored = true;
      return;
    }
    try {
      const answered = await this.released(
        this.store.append(this.sessionId, entries, {
          expectedRevision,
          ...(this.fencingToken !== undefined ? { fencingToken: this.fencingToken } : {}),
        }),
      );
      // Given up (abandon): whether it landed is unknown, so it does not count as stored.
      if (!answered) this.unstored = true;
    } catch (error) {
      this.failure ??= toError(error);
      this.unstored = true;
    }
    // Answers held while this append was in flight go in the next one (behind this append's
    // events), unless a message took them first.
    if (this.held?.atWriteEnd) this.appendHeld();
  }

  /**
   * Gives up on the store: `failure` is set (nothing more is written), and the wait for the append
   * in flight ends, so everything queued behind it (events, `flush()`) goes on. Whether that
   * append lands is the store's: a host reloads the session to see what was stored.
   */
  abandon(failure: Error): void {
    this.failure ??= failure;
    this.release?.();
  }

  /** `write`, or sooner when the journal is abandoned: true when the store answered, false when given up. */
  private async released(write: Promise<void>): Promise<boolean> {
    try {
      return await new Promise<boolean>((resolve, reject) => {
        this.release = () => resolve(false);
        this.writingSince = Date.now();
        Promise.resolve(write).then(() => resolve(true), reject);
      });
    } finally {
      this.release = undefined;
      this.writingSince = undefined;
    }
  }

  /**
   * Runs `fn` once everything recorded so far is stored. When some of it was not (its write
   * failed, or came after a failure, or was given up), `fn` is dropped, unless `evenIfUnstored`:
   * for what announces nothing stored (the run's error and end).
   */
  after(fn: () => void, evenIfUnstored = false): void {
    this.appendHeld();
    this.startAppend();
    this.afterStored([fn], evenIfUnstored);
  }

  /** Chains `fns` behind the appends started so far (see {@link after}). */
  private afterStored(fns: ReadonlyArray<() => void>, evenIfUnstored: boolean): void {
    for (const fn of fns) {
      const run = () => {
        if (evenIfUnstored || !this.unstored) fn();
      };
      this.tail = this.tail.then(run, run);
    }
  }

  /** Resolves when everything recorded so far is stored (or failed). */
  flush(): Promise<void> {
    this.appendHeld();
    this.startAppend();
    return this.tail;
  }
}

/** The `tool_result` blocks the user messages among `drafts` carry (undefined: none). */
function carriedResults(drafts: readonly EntryDraft[]): Set<object> | undefined {
  let carried: Set<object> | undefined;
  for (const draft of drafts) {
    if (draft.kind !== 'message' || draft.message.role !== 'user' || typeof draft.message.content === 'string') continue;
    for (const block of draft.message.content) if (block.type === 'tool_result') (carried ??= new Set()).add(block);
  }
  return carried;
}
