import { SessionConflictError } from '../errors/session-conflict-error.js';
import { fenceError, type LeaseRecord } from '../session/lease-rules.js';
import type { PostgresPool } from './postgres-pool.js';
import type { LoadedSessionHead } from '../session/pending-bases.js';
import { clockSql, toNumber } from './postgres-schema.js';

/** A session's row as the stores read it (its `lastId` null for a row written before schema version 2), with the lease clock's reading. */
export interface SessionHead extends LoadedSessionHead {
  lease: LeaseRecord | undefined;
  /** The lease clock when the row was read, epoch ms. */
  now: number;
}

/** Reads a session's row (all zero for a session without one) and the lease clock. */
export async function readSessionHead(pool: PostgresPool, s: string, sessionId: string, clock: number | null): Promise<SessionHead> {
  const { rows } = await pool.query(
    `SELECT ${clockSql(2)} AS now, r.revision, r.pending::text AS pending, r.pending_rule, r.last_id, r.lease_holder, r.lease_token, r.lease_expires_at
     FROM (SELECT 1) AS one LEFT JOIN ${s}.sessions AS r ON r.session_id = $1`,
    [sessionId, clock],
  );
  const row = rows[0]!;
  const token = toNumber(row.lease_token ?? 0);
  return {
    ...savedFieldsOf(row),
    lease: token > 0 ? { holder: String(row.lease_holder ?? ''), fencingToken: token, expiresAt: toNumber(row.lease_expires_at) } : undefined,
    now: toNumber(row.now),
  };
}

/** The saved fields of a session's row (`revision`, `pending`, `pending_rule`, `last_id`), all zero or null for a session without one. */
export function savedFieldsOf(row: Record<string, unknown> | undefined): LoadedSessionHead {
  return {
    revision: toNumber(row?.revision ?? 0),
    pending: (row?.pending as string | null | undefined) ?? null,
    rule: toNumber(row?.pending_rule ?? 0),
    lastId: (row?.last_id as string | null | undefined) ?? null,
  };
}

/**
 * Throws the error for an append that `head` refuses: `LeaseLostError` for a token that is not the
 * current, unexpired lease's (checked first), `SessionConflictError` for another revision, or for
 * the same revision of another history (`previousId`, the id the writer saw last, is not the
 * session's last entry's: the session was deleted and written again).
 */
export function refuseAppend(sessionId: string, head: SessionHead, expectedRevision: number, fencingToken: number | undefined, previousId: string | undefined): void {
  if (fencingToken !== undefined) {
    const lost = fenceError(sessionId, head.lease, fencingToken, head.now);
    if (lost) throw lost;
  }
  if (head.revision !== expectedRevision) throw new SessionConflictError({ sessionId, expectedRevision, actualRevision: head.revision });
  if (previousId !== undefined && head.lastId !== null && head.lastId !== previousId) throw new SessionConflictError({ sessionId, expectedRevision, actualRevision: head.revision });
}
