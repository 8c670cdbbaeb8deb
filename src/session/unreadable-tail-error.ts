import { SessionStoreCorruptError } from '../errors/session-store-corrupt-error.js';

/** Fields of {@link unreadableTailError}. */
export interface UnreadableTailErrorOptions {
  sessionId: string;
  /** The revision the writer loaded: the seq of the last entry it could read. */
  expectedRevision: number;
  /** The session's revision as the store keeps it. */
  revision: number;
  /** Where the entries past `expectedRevision` are, e.g. `Redis key app:entries:s`. */
  location: string;
  /** The store's own commands that cut the session back to `expectedRevision`. */
  cutBack: string;
}

/**
 * The refusal of an append after the last entry a load could read when every entry the store
 * keeps past it is missing or unreadable (a hand edit, a partial restore). A SessionConflictError
 * would send the host back to a load that stops at the same place, for ever.
 */
export function unreadableTailError(options: UnreadableTailErrorOptions): SessionStoreCorruptError {
  const { sessionId, expectedRevision, revision, location, cutBack } = options;
  const range = revision > expectedRevision + 1 ? `entries ${expectedRevision + 1}–${revision}` : `entry ${revision}`;
  return new SessionStoreCorruptError({
    sessionId,
    location: `${range} of ${location}`,
    problem: `${revision > expectedRevision + 1 ? 'are' : 'is'} missing or not a transcript entry (a JSON object), while the session's revision is ${revision}: a load stops at entry ${expectedRevision}, so an append after it cannot be placed`,
    repair: `Nothing was written. Restore the ${range.split(' ')[0]}, or cut the session back to revision ${expectedRevision} to go on without them (${cutBack}); store.delete(${JSON.stringify(sessionId)}) discards the session.`,
  });
}
