import type { PostgresPoolClient } from './postgres-pool.js';

/** An index a migration builds without blocking writes. */
export interface ConcurrentIndex {
  /** The index's name, in the stores' schema. */
  name: string;
  /** The rest of `CREATE INDEX … <name>`: `ON <table> (<columns>)`, for the quoted schema `s`. */
  on: (s: string) => string;
}

/** What {@link buildIndexConcurrently} did. */
export type IndexBuild = 'built' | 'busy';

/**
 * Builds an index with `CREATE INDEX CONCURRENTLY` (outside any transaction, on `client`, which
 * must hold none): writers go on while it builds, where a plain `CREATE INDEX` holds a lock that
 * stops every insert into the table until the migration commits. Under a session-level advisory
 * lock taken with `pg_try_advisory_lock`, never waited for: a process that would wait for it while
 * holding a snapshot would be waited for by the build in turn (a deadlock); it finds `'busy'`
 * instead and goes on (the build's process records the version). Holding the lock, an index
 * already there but not valid is what an attempt that died halfway left (a crash, a cancelled or
 * killed connection): it is dropped, concurrently too, and built again, unless a backend is
 * building it right now without the lock (a host's own tool running the published SQL).
 * @param lockKey Names the advisory lock, one per schema.
 * @returns `'built'` once the index is there and valid; `'busy'` when another process builds it.
 */
export async function buildIndexConcurrently(client: PostgresPoolClient, s: string, index: ConcurrentIndex, lockKey: string): Promise<IndexBuild> {
  const { rows } = await client.query(`SELECT pg_try_advisory_lock(hashtext($1)) AS locked`, [lockKey]);
  if (rows[0]?.locked !== true) return 'busy';
  try {
    const state = await indexState(client, s, index.name);
    if (state === 'valid') return 'built';
    // Invalid while a build is under way that does not take the lock (the host's own migration
    // tool running the published SQL): left to it, not dropped under it.
    if (state === 'invalid' && (await beingBuilt(client, s, index.name))) return 'busy';
    if (state === 'invalid') await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${s}.${index.name}`);
    // IF NOT EXISTS: a build by an agent-harness that does not take the lock (one from before
    // this change builds it in its migration's transaction) may have committed it meanwhile.
    await client.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${index.name} ${index.on(s)}`);
    return (await indexState(client, s, index.name)) === 'valid' ? 'built' : 'busy';
  } finally {
    await client.query(`SELECT pg_advisory_unlock(hashtext($1))`, [lockKey]);
  }
}

/** Whether the index is there, and valid (usable, complete) or not (a concurrent build unfinished or failed). */
async function indexState(client: PostgresPoolClient, s: string, name: string): Promise<'valid' | 'invalid' | 'missing'> {
  const { rows } = await client.query(`SELECT i.indisvalid AND i.indisready AS valid FROM pg_index AS i WHERE i.indexrelid = to_regclass($1)`, [`${s}.${name}`]);
  if (rows.length === 0) return 'missing';
  return rows[0]!.valid === true ? 'valid' : 'invalid';
}

/** Whether a backend is building the index now (PostgreSQL 12 and later report it; before, it is taken for none). */
async function beingBuilt(client: PostgresPoolClient, s: string, name: string): Promise<boolean> {
  const view = await client.query(`SELECT to_regclass('pg_catalog.pg_stat_progress_create_index') IS NOT NULL AS present`);
  if (view.rows[0]?.present !== true) return false;
  const { rows } = await client.query(
    `SELECT EXISTS (SELECT 1 FROM pg_stat_progress_create_index WHERE index_relid = to_regclass($1) AND pid <> pg_backend_pid()) AS building`,
    [`${s}.${name}`],
  );
  return rows[0]?.building === true;
}
