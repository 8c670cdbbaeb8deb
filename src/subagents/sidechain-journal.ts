import type { EntryDraft, TranscriptWriter } from '../session/journal.js';

/**
 * A subagent's transcript: a sidechain of its parent's session. Its entries go into the parent's
 * journal, in order with the parent's, each marked with the subagent's `agentId` — loading the
 * session passes over them, except those continuing a nested run a suspended call waits on.
 */
export class SidechainJournal implements TranscriptWriter {
  constructor(
    private readonly parent: TranscriptWriter,
    private readonly agentId: string,
  ) {}

  get revision(): number {
    return this.parent.revision;
  }

  get failure(): Error | undefined {
    return this.parent.failure;
  }

  record(...drafts: EntryDraft[]): void {
    this.parent.record(...drafts.map(this.marked));
  }

  hold(drafts: readonly EntryDraft[], announce: () => void, until: 'message' | 'write-ends'): void {
    this.parent.hold(drafts.map(this.marked), announce, until);
  }

  /** A draft marked with the subagent's id (a grandchild's entries already carry their own). */
  private readonly marked = (draft: EntryDraft): EntryDraft => (draft.agentId !== undefined ? draft : Object.assign({}, draft, { agentId: this.agentId }));

  after(fn: () => void, evenIfUnstored?: boolean): void {
    this.parent.after(fn, evenIfUnstored);
  }

  flush(): Promise<void> {
    return this.parent.flush();
  }

  get writingSince(): number | undefined {
    return this.parent.writingSince;
  }

  abandon(failure: Error): void {
    this.parent.abandon(failure);
  }
}
