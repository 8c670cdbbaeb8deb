import { UnsupportedSchemaVersionError } from '../errors/unsupported-schema-version-error.js';
import { SessionConflictError } from '../errors/session-conflict-error.js';
import { SessionStoreCorruptError } from '../errors/session-store-corrupt-error.js';
import { isBoolean, isFunction } from '../options/index.js';
import { assertSessionId } from '../session/assert-session-id.js';
import { checkAppend } from '../session/check-append.js';
import { entryIdClashError } from '../session/entry-id-clash.js';
import { isReplay } from '../session/is-replay.js';
import { emptyPendingApprovals, foldPendingApprovals, PENDING_APPROVALS_RULE, pendingApprovalsIn } from '../session/pending-approvals.js';
import { entryJson } from '../session/entry-json.js';
import { jsonArrayBytes } from './json-array-bytes.js';
import { takesJsonBytes } from './takes-json-bytes.js';
import { unlessUnsupported } from '../session/unless-unsupported.js';
import { unreadableTailError } from '../session/unreadable-tail-error.js';
import { isWaiting, parseSavedPending, pendingFromSaved, savedPendingText } from '../session/saved-pending-approvals.js';
import type { PendingSession, SessionStore } from '../session/session-store.js';
import { loadPostgresEntryBatches } from './load-postgres-entries.js';
import { refuseNulIds } from './refuse-nul-ids.js';
import { batchedEntries, entriesOf } from '../session/entry-batches.js';
import { inTransaction } from './postgres-pool.js';
import { clockSql, entryIdSql, entryTextSql, toNumber } from './postgres-schema.js';
import { readSessionHead, refuseAppend, type SessionHead } from './postgres-session-head.js';
import { postgresSessionLeases } from './postgres-session-leases.js';
import { isPlainPgPool, preparedPool } from './prepared-pool.js';
import { PendingBases } from '../session/pending-bases.js';
import { storeSetup, type PostgresStoreOptions } from './postgres-store-options.js';

/** Options of {@link postgresSessionStore}. */
export interface PostgresSessionStoreOptions extends PostgresStoreOptions {
  /**
   * The clock leases run on, in epoch milliseconds. Tests pass a manual clock.
   * @default the PostgreSQL server's clock, so every worker reads the same time
   */
  now?: () => number;
  /**
   * Send the store's statements as named prepared statements, which PostgreSQL parses and plans
   * once per connection instead of at every call: an append's statement then takes about a third
   * of the server's time. The pool's `query` is then called as `query({ name, text, values })`,
   * as `pg.Pool` takes it. Behind a pooler that does not keep prepared statements across server
   * connections (PgBouncer in transaction mode before 1.21, or without `max_prepared_statements`),
   * the first statement PostgreSQL refuses for its name (SQLSTATE 26000 or 42P05) is sent again
   * unnamed (it did not run), and the store sends its statements unnamed from then on. Turn it off
   * behind a proxy that pins a server connection to each client holding a prepared statement.
   * @default true for a `pg.Pool` as `pg` makes it; false for any other pool (a wrapper whose
   * `query` may read its first argument as the text)
   */
  preparedStatements?: boolean;
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** Sessions refolded per `listPending()` call when the pending-approvals rule changed since they were saved. */
const REFOLD_LIMIT = 1000;

/**
 * A session store in PostgreSQL: a `sessions` row per session (revision, folded pending
 * approvals, lease) and a `session_entries` row per entry, keyed by `(session_id, seq)`. An
 * append is one statement: it moves the session's revision from the expected one to the new one
 * (and checks the fencing token) and inserts the entries only if that row changed, so racing
 * writers serialize on the row and exactly one wins; the key refuses a duplicate `seq` besides.
 * Tables are created on first use, once per pool and schema in a process (see
 * {@link migratePostgres}); several stores and processes may share them.
 * @throws ConfigurationError for a missing pool or a bad schema name.
 * @example
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const store = postgresSessionStore({ pool });
 * const agent = createAgent({ model, store });
 */
export function postgresSessionStore(options: PostgresSessionStoreOptions): SessionStore {
  const { s, ready, pool: watched } = storeSetup(options, 'postgresSessionStore', { now: isFunction, preparedStatements: isBoolean });
  const pool = (options.preparedStatements ?? isPlainPgPool(options.pool)) ? preparedPool(watched) : watched;
  /** The entries go to `pg` as UTF-8 bytes, not one string (see the append). */
  const sendsBytes = takesJsonBytes(options.pool);
  const clock = (): number | null => options.now?.() ?? null;
  /**
   * Sessions `listPending()` could not refold because they hold an entry of a `$schemaVersion`
   * this build does not read: not read again by this instance (the session's next append folds it
   * again). A damaged session (`SessionStoreCorruptError`) is not remembered: it is tried again
   * at the next call, so a repair of its rows shows at once.
   */
  const unreadable = new Set<string>();
  /** The pending approvals at a revision this store wrote or read: the next append folds onto it. */
  const folded = new PendingBases();

  /** A session's entries one by one, for folding its pending approvals. */
  const load = (sessionId: string) => entriesOf(loadPostgresEntryBatches({ pool, s, sessionId }));
  /**
   * The append's statement: one text per kind (a new session's insert or a move of the row) and
   * per waiting flag, built once per store, so that each append neither builds it again nor makes
   * the prepared pool hash a new string of some 2 KB to find its name.
   */
  const appendStatements = new Map<string, string>();
  const appendStatement = (unfencedNew: boolean, waiting: 'true' | 'false'): string => {
    const key = `${unfencedNew} ${waiting}`;
    const known = appendStatements.get(key);
    if (known !== undefined) return known;
    // The row moves from the expected revision to the new one, or nothing happens at all.
    // The row's own columns only in the WHERE: a writer waiting on the row lock re-checks them
    // on the row as the other writer left it. last_id tells two histories at one revision apart.
    const head = unfencedNew
      ? `INSERT INTO ${s}.sessions AS r (session_id, revision, pending, pending_rule, waiting, last_id)
         VALUES ($1, $3, $4::json, ${PENDING_APPROVALS_RULE}, ${waiting}, $6)
         ON CONFLICT (session_id) DO UPDATE
           SET revision = EXCLUDED.revision, pending = EXCLUDED.pending, pending_rule = EXCLUDED.pending_rule, waiting = EXCLUDED.waiting, last_id = EXCLUDED.last_id, updated_at = now()
         WHERE r.revision = $2
         RETURNING r.session_id`
      : `UPDATE ${s}.sessions AS r SET revision = $3, pending = $4::json, pending_rule = ${PENDING_APPROVALS_RULE}, waiting = ${waiting}, last_id = $6, updated_at = now()
         WHERE r.session_id = $1 AND r.revision = $2 AND ($7::text IS NULL OR r.last_id IS NULL OR r.last_id = $7)
           AND ($8::bigint IS NULL OR (r.lease_token = $8 AND r.lease_expires_at > ${clockSql(9)}))
         RETURNING r.session_id`;
    // An entry with the id of a stored one and other content (content compared without seq and
    // parentId, as jsonb: key order aside) stops the append before the row moves. Read in this
    // statement's snapshot, so the session must be at the expected revision in it too: a writer
    // that waited for the row lock of an append it did not see gets a conflict, not a missed id.
    // One index lookup per new entry (LATERAL ... LIMIT 1): as a join, the planner hashed every
    // row of the session whenever it guessed the session short (most are), so an append of a long
    // session read all of its rows.
    const clashes = `(SELECT json_build_array(item.id, e.seq, $2 + item.position)
        FROM (SELECT value, position, ${entryIdSql('value')} AS id FROM json_array_elements($5::json) WITH ORDINALITY AS given(value, position)) AS item
        CROSS JOIN LATERAL (SELECT e.seq FROM ${s}.session_entries AS e
          WHERE e.session_id = $1 AND ${entryIdSql('e.entry')} = item.id AND ${placelessSql('e.entry')} <> ${placelessSql('item.value')}
          ORDER BY e.seq LIMIT 1) AS e
        ORDER BY item.position LIMIT 1)`;
    const seen = `(SELECT coalesce((SELECT revision FROM ${s}.sessions WHERE session_id = $1), 0))`;
    const statement = `WITH clash AS (SELECT ${clashes} AS found, ${seen} AS seen),
      head AS (${head.replace('RETURNING', `AND (SELECT found IS NULL AND seen = $2 FROM clash)
         RETURNING`)}),
      added AS (
        INSERT INTO ${s}.session_entries (session_id, seq, bytes, entry)
        SELECT head.session_id, $2 + item.position, octet_length(item.value::text), item.value
        FROM head, json_array_elements($5::json) WITH ORDINALITY AS item(value, position)
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM head) AS moved, (SELECT count(*) FROM added) AS added, (SELECT found::text FROM clash) AS clash`;
    appendStatements.set(key, statement);
    return statement;
  };
  const append: SessionStore['append'] = async (sessionId, entries, appendOptions) => {
    assertSessionId(sessionId);
    const { expectedRevision, fencingToken, revision, previousId, lastId } = checkAppend('postgresSessionStore', sessionId, entries, appendOptions);
    refuseNulIds(sessionId, entries, previousId);
    // Serialized now, so a later change to the entries by the caller is not written.
    const lines = entries.map((entry, index) => entryJson('postgresSessionStore', sessionId, entry, index));
    // For a pg.Pool of pg's own client, as bytes (pg sends a Buffer in binary format, and a `json`
    // parameter's binary form is its text): a joined string of two long entries would be made in
    // V8's large-object space, about ten times slower (json-array-bytes). Another pool gets the
    // text (takes-json-bytes).
    if (entries.length === 0) return;
    const entriesJson = sendsBytes ? jsonArrayBytes(lines) : `[${lines.join(',')}]`;
    await ready();
    /** True for a retry of an append whose reply was lost (stored already, whatever the lease says now); else throws the refusal `head` calls for, if any. */
    const isStoredReplay = async (head: SessionHead): Promise<boolean> => {
      if (head.revision >= revision) {
        const { rows } = await pool.query(`SELECT entry::text AS entry FROM ${s}.session_entries WHERE session_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq`, [sessionId, expectedRevision, revision]);
        if (isReplay(rows.map((row) => String(row.entry)), lines)) return true;
      }
      try {
        refuseAppend(sessionId, head, expectedRevision, fencingToken, previousId);
      } catch (error) {
        if (SessionConflictError.isInstance(error) && head.revision === expectedRevision) await refuseDamagedLastId(sessionId, head, previousId);
        if (SessionConflictError.isInstance(error) && head.revision > expectedRevision && (await onlyUnreadableAfter(sessionId, expectedRevision, head.revision))) {
          throw unreadableTailError({ sessionId, expectedRevision, revision: head.revision, location: `${s}.session_entries`, cutBack: cutBackSql(s, sessionId, expectedRevision) });
        }
        throw error;
      }
      return false;
    };
    let basis = folded.get(sessionId);
    // A new session's first append reads no row first: the statement moves only a session at
    // revision 0 (with no approval pending), and a refusal reads the row then (below), in the order
    // this read would have: one round trip less for every session a host starts.
    const unread = expectedRevision === 0;
    if (unread) basis = { revision: 0, lastId: undefined, state: emptyPendingApprovals() };
    // Folded at this revision of the history the writer saw (not of one deleted since).
    else if (basis?.revision !== expectedRevision || previousId === undefined || basis.lastId !== previousId) {
      const head = await readSessionHead(pool, s, sessionId, clock());
      if (await isStoredReplay(head)) return;
      basis = { revision: expectedRevision, lastId: head.lastId ?? undefined, state: (await pendingFromSaved(head, () => load(sessionId))).state };
    }
    const state = foldPendingApprovals(basis.state, entries);
    const pending = savedPendingText(state);
    const waiting = isWaiting(state) ? 'true' : 'false';
    const unfencedNew = expectedRevision === 0 && fencingToken === undefined;
    const statement = appendStatement(unfencedNew, waiting);
    const values = [sessionId, expectedRevision, revision, pending, entriesJson, lastId ?? null, ...(unfencedNew ? [] : [previousId ?? null, fencingToken ?? null, clock()])];
    let moved: number;
    let clash: string | null | undefined;
    try {
      const row = (await pool.query(statement, values)).rows[0];
      moved = toNumber(row?.moved ?? 0);
      clash = row?.clash as string | null | undefined;
    } catch (error) {
      folded.delete(sessionId);
      // A duplicate (session_id, seq): someone else wrote these numbers first.
      if (errorCode(error) === '23505') {
        await refuseStrayRows(sessionId);
        throw new SessionConflictError({ sessionId, expectedRevision });
      }
      throw error;
    }
    if (moved !== 1) {
      folded.delete(sessionId);
      const storedReplay = async (): Promise<boolean> => isStoredReplay(await readSessionHead(pool, s, sessionId, clock()));
      // Unread: what the read before the statement would have refused (another revision, a lost
      // lease) or found (this append stored already, its reply lost) comes before a clash.
      if (unread && (await storedReplay())) return;
      if (typeof clash === 'string') {
        const [id, storedSeq, seq] = JSON.parse(clash) as [string, number | string, number | string];
        throw entryIdClashError('postgresSessionStore', sessionId, { id, storedSeq: toNumber(storedSeq), seq: toNumber(seq) });
      }
      if (!unread && (await storedReplay())) return;
      // The row changed back in between (e.g. deleted and written again): still not ours.
      throw new SessionConflictError({ sessionId, expectedRevision });
    }
    folded.keep(sessionId, { revision, lastId, state });
  };

  /**
   * True when none of the session's rows after `expectedRevision` holds an entry a load can read
   * (missing, or not a JSON object) and the session is still at `revision`: a writer that loaded
   * it cannot get past `expectedRevision`. One statement, so one snapshot.
   */
  const onlyUnreadableAfter = async (sessionId: string, expectedRevision: number, revision: number): Promise<boolean> => {
    const { rows } = await pool.query(
      `SELECT r.revision, EXISTS (SELECT 1 FROM ${s}.session_entries AS e WHERE e.session_id = $1 AND e.seq > $2 AND e.seq <= r.revision AND json_typeof(e.entry) = 'object') AS readable
       FROM ${s}.sessions AS r WHERE r.session_id = $1`,
      [sessionId, expectedRevision],
    );
    const row = rows[0];
    return row !== undefined && toNumber(row.revision) === revision && row.readable === false;
  };

  /**
   * Throws SessionStoreCorruptError when the session's `last_id` is not the id of its entry at
   * its revision while that entry is the one the writer saw last (`last_id` edited by hand): a
   * conflict would send the writer back to a load that ends at the same entry, for ever. Another
   * entry there (the session deleted and written again) is a conflict, as ever.
   */
  const refuseDamagedLastId = async (sessionId: string, head: SessionHead, previousId: string | undefined): Promise<void> => {
    if (previousId === undefined || head.lastId === null || head.lastId === previousId) return;
    const { rows } = await pool.query(`SELECT ${entryIdSql('entry')} AS id FROM ${s}.session_entries WHERE session_id = $1 AND seq = $2`, [sessionId, head.revision]);
    if (rows[0]?.id !== previousId) return;
    throw new SessionStoreCorruptError({
      sessionId,
      location: `the column last_id of its row in ${s}.sessions`,
      problem: `says its last entry is ${JSON.stringify(head.lastId.slice(0, 80))}, while its entry ${head.revision} (its revision) is ${JSON.stringify(previousId.slice(0, 80))}: the row was edited`,
      repair: `Nothing was written. Set last_id to the id of entry ${head.revision} (UPDATE ${s}.sessions SET last_id = ${sqlText(previousId)} WHERE session_id = ${sqlText(sessionId)}), or restore the session from a backup.`,
    });
  };

  /**
   * Throws SessionStoreCorruptError when rows lie past the session's revision: every append would
   * collide with them (a duplicate key) and be refused as a conflict, for ever.
   */
  const refuseStrayRows = async (sessionId: string): Promise<void> => {
    const { rows } = await pool.query(
      `SELECT r.revision, (SELECT min(seq) FROM ${s}.session_entries AS e WHERE e.session_id = $1 AND e.seq > r.revision) AS first_stray,
         (SELECT max(seq) FROM ${s}.session_entries AS e WHERE e.session_id = $1) AS last_row
       FROM ${s}.sessions AS r WHERE r.session_id = $1`,
      [sessionId],
    );
    const row = rows[0];
    if (row === undefined || row.first_stray === null) return;
    const revision = toNumber(row.revision);
    const last = toNumber(row.last_row);
    const id = sqlText(sessionId);
    throw new SessionStoreCorruptError({
      sessionId,
      location: `${last > toNumber(row.first_stray) ? `rows ${toNumber(row.first_stray)}–${last}` : `row ${last}`} of ${s}.session_entries`,
      problem: `lie past the session's revision, ${revision} (in ${s}.sessions), where the next append must put its entries`,
      repair:
        `Nothing was written. Delete those rows (DELETE FROM ${s}.session_entries WHERE session_id = ${id} AND seq > ${revision}), or, if they belong to the session, ` +
        `make the last of them its revision (UPDATE ${s}.sessions SET revision = ${last}, last_id = NULL, pending = NULL WHERE session_id = ${id}); store.delete(${JSON.stringify(sessionId)}) discards the session.`,
    });
  };

  /**
   * Refolds the saved pending approvals of sessions saved under another version of the rule
   * (after an upgrade of agent-harness), each once per call; an append racing with it refolds
   * the session itself.
   */
  const refoldOutdated = async (): Promise<void> => {
    const { rows } = await pool.query(
      `SELECT session_id FROM ${s}.sessions WHERE revision > 0 AND (pending_rule < $1 OR pending_rule > $1) AND NOT (session_id = ANY($2::text[])) ORDER BY session_id LIMIT ${REFOLD_LIMIT}`,
      [PENDING_APPROVALS_RULE, [...unreadable]],
    );
    for (const row of rows) {
      const sessionId = String(row.session_id);
      const head = await readSessionHead(pool, s, sessionId, null);
      let newer = false;
      const refolded = await unlessUnsupported(pendingFromSaved({ ...head, rule: -1 }, () => load(sessionId)), (error) => (newer = UnsupportedSchemaVersionError.isInstance(error)));
      // Written by a newer agent-harness: left to the builds that read it, not asked for again.
      // Damaged: passed over now, tried again next time (it may have been repaired by then).
      if (refolded === undefined) {
        if (newer) unreadable.add(sessionId);
        continue;
      }
      const { state } = refolded;
      await pool.query(`UPDATE ${s}.sessions SET pending = $3::json, pending_rule = $4, waiting = $5 WHERE session_id = $1 AND revision = $2`, [
        sessionId,
        head.revision,
        savedPendingText(state),
        PENDING_APPROVALS_RULE,
        isWaiting(state),
      ]);
    }
  };

  return {
    append,

    load(sessionId, loadOptions) {
      return batchedEntries(async function* () {
        assertSessionId(sessionId);
        await ready();
        const { onWarning, fromCheckpoint } = loadOptions ?? {};
        yield* loadPostgresEntryBatches({ pool, s, sessionId, onHead: (head) => folded.keepLoaded(sessionId, head), ...(onWarning ? { onWarning } : {}), ...(fromCheckpoint ? { fromCheckpoint } : {}) });
      });
    },

    async list() {
      await ready();
      const { rows } = await pool.query(`SELECT session_id FROM ${s}.sessions WHERE revision > 0 ORDER BY session_id COLLATE "C"`);
      return rows.map((row) => String(row.session_id));
    },

    async delete(sessionId) {
      assertSessionId(sessionId);
      await ready();
      folded.delete(sessionId);
      await inTransaction(pool, async (client) => {
        // The row first: an append racing with the delete either lands before it (and is
        // deleted) or waits and finds revision 0.
        const locked = await client.query(`SELECT 1 FROM ${s}.sessions WHERE session_id = $1 FOR UPDATE`, [sessionId]);
        if (locked.rows.length === 0) return;
        await client.query(`DELETE FROM ${s}.session_entries WHERE session_id = $1`, [sessionId]);
        // The lease ends with the session; its token stays, so tokens never repeat.
        await client.query(
          `UPDATE ${s}.sessions SET revision = 0, pending = NULL, pending_rule = $2, waiting = false, last_id = NULL, lease_expires_at = least(lease_expires_at, ${clockSql(3)}), updated_at = now() WHERE session_id = $1`,
          [sessionId, PENDING_APPROVALS_RULE, clock()],
        );
      });
    },

    async close(sessionId) {
      assertSessionId(sessionId);
      folded.delete(sessionId);
    },

    leases: postgresSessionLeases({ pool, s, ready, clock }),

    async listPending() {
      await ready();
      await refoldOutdated();
      // Only states this build's rule folded: one it could not refold (a newer version wrote the session) is not read.
      const { rows } = await pool.query(`SELECT session_id, pending::text AS pending FROM ${s}.sessions WHERE waiting AND pending_rule = $1 ORDER BY session_id COLLATE "C"`, [PENDING_APPROVALS_RULE]);
      const waiting: PendingSession[] = [];
      for (const row of rows) {
        const state = parseSavedPending(String(row.pending));
        const approvals = state === undefined ? [] : pendingApprovalsIn(state);
        if (approvals.length > 0) waiting.push({ sessionId: String(row.session_id), approvals });
      }
      return waiting;
    },
  };
}

/**
 * SQL for an entry's content apart from where it is stored, as jsonb (see `placelessJson`).
 */
function placelessSql(json: string): string {
  return `(${entryTextSql(json)}::jsonb - 'seq' - 'parentId')`;
}

/** `text` as an SQL string literal, for the repair commands errors print. */
function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The statements that cut a session back to `revision`, dropping the rows after it. */
function cutBackSql(s: string, sessionId: string, revision: number): string {
  const id = sqlText(sessionId);
  return `DELETE FROM ${s}.session_entries WHERE session_id = ${id} AND seq > ${revision}; UPDATE ${s}.sessions SET revision = ${revision}, last_id = NULL, pending = NULL WHERE session_id = ${id}`;
}
