import { SessionStoreCorruptError } from '../errors/session-store-corrupt-error.js';
import { assertSessionId } from '../session/assert-session-id.js';
import { checkLeaseArguments, checkLeaseObject } from '../session/lease-rules.js';
import type { SessionLease, SessionLeases } from '../session/session-store.js';
import type { PostgresPool } from './postgres-pool.js';
import { clockSql, toNumber } from './postgres-schema.js';

/** What the PostgreSQL store lends its leases. */
export interface PostgresSessionLeasesContext {
  pool: PostgresPool;
  /** The quoted schema. */
  s: string;
  /** Resolves once the tables exist. */
  ready: () => Promise<void>;
  /** The host's clock reading, or null for the server's. */
  clock: () => number | null;
}

function leaseFrom(sessionId: string, row: Record<string, unknown> | undefined): SessionLease | undefined {
  if (row === undefined) return undefined;
  return { sessionId, holder: String(row.lease_holder), fencingToken: toNumber(row.lease_token), expiresAt: toNumber(row.lease_expires_at) };
}

/**
 * Throws SessionStoreCorruptError when the session's `lease_token` is below zero (edited by hand):
 * the next token would not be a positive integer, which no append accepts, and tokens taken
 * before may come again.
 */
async function refuseNegativeToken(pool: PostgresPool, s: string, sessionId: string): Promise<void> {
  const { rows } = await pool.query(`SELECT lease_token FROM ${s}.sessions WHERE session_id = $1 AND lease_token < 0`, [sessionId]);
  if (rows.length === 0) return;
  const id = `'${sessionId.replaceAll("'", "''")}'`;
  throw new SessionStoreCorruptError({
    sessionId,
    location: `the column lease_token of its row in ${s}.sessions`,
    problem: `is ${toNumber(rows[0]!.lease_token)}, below zero: fencing tokens only grow, so the row was edited, and the next lease would get a token no append accepts`,
    repair: `No lease was given. Set lease_token above every token given for the session, so that none comes again, e.g. to the time in epoch milliseconds (UPDATE ${s}.sessions SET lease_token = ${Date.now()}, lease_expires_at = 0 WHERE session_id = ${id}).`,
  });
}

/**
 * Leases in the session's row (`lease_holder`, `lease_token`, `lease_expires_at`): each change
 * is one conditional statement, so the row lock orders racing workers and an append's fencing
 * check reads the same row it moves.
 */
export function postgresSessionLeases(context: PostgresSessionLeasesContext): SessionLeases {
  const { pool, s, ready, clock } = context;
  return {
    async acquire(sessionId, options) {
      assertSessionId(sessionId);
      checkLeaseArguments('postgresSessionStore.leases.acquire', options, true);
      await ready();
      // A free, expired or own lease is taken with the next token; a session without a row gets one.
      const { rows } = await pool.query(
        `INSERT INTO ${s}.sessions AS r (session_id, lease_holder, lease_token, lease_expires_at)
         VALUES ($1, $2, 1, ${clockSql(4)} + $3)
         ON CONFLICT (session_id) DO UPDATE
           SET lease_holder = EXCLUDED.lease_holder, lease_token = r.lease_token + 1, lease_expires_at = EXCLUDED.lease_expires_at, updated_at = now()
           WHERE (r.lease_expires_at <= EXCLUDED.lease_expires_at - $3 OR r.lease_holder = EXCLUDED.lease_holder) AND r.lease_token >= 0
         RETURNING r.lease_holder, r.lease_token, r.lease_expires_at`,
        [sessionId, options.holder, options.ttlMs, clock()],
      );
      if (rows.length === 0) await refuseNegativeToken(pool, s, sessionId);
      return leaseFrom(sessionId, rows[0]);
    },

    async renew(lease, options) {
      checkLeaseObject('postgresSessionStore.leases.renew', lease);
      checkLeaseArguments('postgresSessionStore.leases.renew', options, false);
      await ready();
      const { rows } = await pool.query(
        `UPDATE ${s}.sessions SET lease_expires_at = ${clockSql(5)} + $4, updated_at = now()
         WHERE session_id = $1 AND lease_token = $2 AND lease_holder = $3 AND lease_expires_at > ${clockSql(5)}
         RETURNING lease_holder, lease_token, lease_expires_at`,
        [lease.sessionId, lease.fencingToken, lease.holder, options.ttlMs, clock()],
      );
      return leaseFrom(lease.sessionId, rows[0]);
    },

    async release(lease) {
      checkLeaseObject('postgresSessionStore.leases.release', lease);
      await ready();
      await pool.query(
        `UPDATE ${s}.sessions SET lease_expires_at = ${clockSql(3)}, updated_at = now()
         WHERE session_id = $1 AND lease_token = $2 AND lease_expires_at > ${clockSql(3)}`,
        [lease.sessionId, lease.fencingToken, clock()],
      );
    },
  };
}
