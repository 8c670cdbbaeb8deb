import { ConfigurationError } from '../errors/configuration-error.js';
import type { SessionEntry } from '../state/entries.js';
import { clashWithinAppend, entryIdClashError } from './entry-id-clash.js';
import type { SessionAppendOptions } from './session-store.js';

/** An append's arguments, checked. */
export interface CheckedAppend {
  /** The revision the writer expects the session to be at. */
  expectedRevision: number;
  /** The writer's fencing token, when it holds a lease. */
  fencingToken: number | undefined;
  /** The `seq` of each entry, in order: `expectedRevision + 1`, `+ 2`, … */
  seqs: number[];
  /** The session's revision once the append is stored. */
  revision: number;
  /**
   * The id of the entry the writer saw last: the first entry's `parentId`, when `expectedRevision`
   * is above 0 and it is a non-empty string. The session's entry at `expectedRevision` must have this id, or
   * the writer saw another history that reached the same revision (the session was deleted and
   * written again): a conflict. Undefined when the entries do not say; only the revision is checked.
   */
  previousId: string | undefined;
  /** The id of the last entry, when it is a string: what the next writer's `parentId` must be. */
  lastId: string | undefined;
}

/**
 * Checks what every store's `append` is given, so all stores refuse the same mistakes: a missing
 * or negative `expectedRevision`, a fencing token that is not a positive integer, and entries
 * numbered otherwise than from `expectedRevision + 1` on (an entry without `seq`, written before
 * entries were numbered, takes the next number).
 * @param storeName Names the store in errors, e.g. `memorySessionStore`.
 * @throws ConfigurationError naming the bad value.
 */
export function checkAppend(storeName: string, sessionId: string, entries: readonly SessionEntry[], options: SessionAppendOptions | undefined): CheckedAppend {
  const expectedRevision = options?.expectedRevision;
  if (!Number.isSafeInteger(expectedRevision) || expectedRevision! < 0) {
    throw new ConfigurationError(
      `${storeName}.append needs options.expectedRevision, the revision the writer last saw (0 for a new session), got ${JSON.stringify(expectedRevision)}.`,
    );
  }
  const fencingToken = options?.fencingToken;
  if (fencingToken !== undefined && (!Number.isSafeInteger(fencingToken) || fencingToken <= 0)) {
    throw new ConfigurationError(`${storeName}.append got fencingToken ${JSON.stringify(fencingToken)}: pass the fencingToken of the lease you hold (a positive integer), or none.`);
  }
  if (!Array.isArray(entries)) throw new ConfigurationError(`${storeName}.append needs an array of entries, got ${typeof entries}.`);
  const seqs: number[] = [];
  let revision = expectedRevision!;
  for (const [index, entry] of entries.entries()) {
    if (typeof entry !== 'object' || entry === null) {
      throw new ConfigurationError(`${storeName}.append got ${entry === null ? 'null' : typeof entry} as entry ${index + 1}: entries are transcript entry objects.`);
    }
    revision += 1;
    const seq = (entry as { seq?: unknown }).seq;
    if (seq !== undefined && seq !== revision) {
      throw new ConfigurationError(
        `${storeName}.append got an entry with seq ${JSON.stringify(seq)} at position ${revision} (expectedRevision ${expectedRevision} + ${index + 1}): ` +
          'entries carry the next numbers after the revision the writer saw. Nothing was stored.',
      );
    }
    seqs.push(revision);
  }
  const clash = clashWithinAppend(entries, seqs);
  if (clash !== undefined) throw entryIdClashError(storeName, sessionId, clash);
  const parentId = (entries[0] as { parentId?: unknown } | undefined)?.parentId;
  const lastId = (entries.at(-1) as { id?: unknown } | undefined)?.id;
  return {
    expectedRevision: expectedRevision!,
    fencingToken,
    seqs,
    revision,
    previousId: expectedRevision! > 0 && typeof parentId === 'string' && parentId !== '' ? parentId : undefined,
    lastId: typeof lastId === 'string' ? lastId : undefined,
  };
}
