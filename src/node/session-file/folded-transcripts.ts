import type { BigIntStats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { keepLatest } from '../../session/keep-latest.js';
import type { PendingApprovalsState } from '../../session/pending-approvals.js';
import type { SessionStoreWarning } from '../../session/session-store.js';

/** What a transcript folded to, and what folding it warned of, as of the file's status before it was read. */
interface Folded {
  dev: bigint;
  ino: bigint;
  size: bigint;
  ctimeNs: bigint;
  mtimeNs: bigint;
  /** Undefined for a transcript passed over (a newer version's, or damaged). */
  pending: PendingApprovalsState | undefined;
  warnings: SessionStoreWarning[];
}

/** Sessions whose fold a store keeps (a few hundred bytes each). */
const MAX_FOLDED = 100_000;

/**
 * A file changed this recently (status change time, by the process's clock) may change again
 * within the same tick of a file system's clock (a second on some), the same size: its fold is
 * not kept ("racy", as git calls an index entry as recent as the index).
 */
const RACY_MS = 2_000;

/**
 * The folds of a file store's transcripts for `listPending()`, by session: a transcript whose
 * file is unchanged since it was folded (the same device, inode, size, status change and
 * modification times) is not read again, and the warnings its fold gave are given again. An
 * inbox polled over many sessions then reads only the transcripts that changed. A kept fold was
 * made of the session's own transcript (not a link to another's) and the name still opens that
 * file, so it is not checked again.
 */
export class FoldedTranscripts {
  readonly #folded = new Map<string, Folded>();

  /**
   * The session's file status now, and its pending approvals as kept while the file is the one
   * folded (its warnings given again to `warn`); `kept` is false when it must be folded.
   */
  async lookUp(sessionId: string, file: string, warn: (warning: SessionStoreWarning) => void): Promise<{ status: BigIntStats | undefined; kept: boolean; pending: PendingApprovalsState | undefined }> {
    const status = await stat(file, { bigint: true }).catch(() => undefined);
    const known = this.#folded.get(sessionId);
    if (status !== undefined && known !== undefined && same(known, status)) {
      for (const warning of known.warnings) warn(warning);
      return { status, kept: true, pending: known.pending };
    }
    this.#folded.delete(sessionId);
    return { status, kept: false, pending: undefined };
  }

  /**
   * Folds the session with `fold` (which reports its warnings to the function it is given, passed
   * on to `warn`) and keeps the result for `status` (the file's, from {@link lookUp}, before it was
   * read), unless the file changed too recently.
   * @param now - the process's clock, epoch ms.
   */
  async fold(sessionId: string, status: BigIntStats | undefined, warn: (warning: SessionStoreWarning) => void, fold: (warn: (warning: SessionStoreWarning) => void) => Promise<PendingApprovalsState | undefined>, now: number): Promise<PendingApprovalsState | undefined> {
    const warnings: SessionStoreWarning[] = [];
    const pending = await fold((warning) => {
      warnings.push(warning);
      warn(warning);
    });
    if (status !== undefined && now - Number(status.ctimeNs / 1_000_000n) >= RACY_MS) {
      keepLatest(this.#folded, sessionId, { dev: status.dev, ino: status.ino, size: status.size, ctimeNs: status.ctimeNs, mtimeNs: status.mtimeNs, pending, warnings }, MAX_FOLDED);
    }
    return pending;
  }

  /** Forgets the session's fold (deleted). */
  forget(sessionId: string): void {
    this.#folded.delete(sessionId);
  }
}

function same(known: Folded, status: BigIntStats): boolean {
  return known.dev === status.dev && known.ino === status.ino && known.size === status.size && known.ctimeNs === status.ctimeNs && known.mtimeNs === status.mtimeNs;
}
