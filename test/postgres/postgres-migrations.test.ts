// Migration 4 builds the entry-id index on a table that may hold millions of rows: it must not
// stop writers while it builds (CREATE INDEX CONCURRENTLY, outside the migration's transaction),
// must build again after an attempt that died halfway (an INVALID index), and must stay safe when
// two processes migrate at once.
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, type SessionEntry } from 'agent-harness';
import { migratePostgres, postgresSessionStore, POSTGRES_SCHEMA_VERSION } from 'agent-harness/postgres';
import { postgresConcurrentIndexSql } from '../../src/postgres/postgres-migrations.js';
import { loadEntries } from '../../src/session/load-entries.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';
import { postgres } from './postgres-test-database.js';
import { postgresTestScope } from './postgres-test-scope.js';

const { admin, pool, schema } = postgresTestScope(3);

/** A schema at version 3 (before the entry-id index) with `sessions` sessions of two entries each. */
async function schemaAtVersion3(sessions = 50): Promise<string> {
  const name = schema();
  await migratePostgres({ pool: admin!, schema: name });
  await admin!.query(`DROP INDEX "${name}".session_entries_entry_id; DELETE FROM "${name}".schema_migrations WHERE version = 4`);
  const store = postgresSessionStore({ pool: admin!, schema: name, migrate: false });
  await admin!.query(`INSERT INTO "${name}".schema_migrations (version, description) VALUES (4, 'for the set-up only')`);
  for (let index = 0; index < sessions; index += 1) {
    const make = entryMaker(`s${index}`);
    await store.append(`s${index}`, [make.userText('one'), make.userText('two')], { expectedRevision: 0 });
  }
  await admin!.query(`DELETE FROM "${name}".schema_migrations WHERE version = 4`);
  return name;
}

/** The index's state: missing, or whether it is valid. */
async function entryIdIndex(name: string): Promise<'missing' | 'valid' | 'invalid'> {
  const { rows } = await admin!.query(`SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass($1)`, [`"${name}".session_entries_entry_id`]);
  return rows.length === 0 ? 'missing' : rows[0].indisvalid ? 'valid' : 'invalid';
}

const versions = async (name: string) => (await admin!.query(`SELECT version FROM "${name}".schema_migrations ORDER BY version`)).rows.map((row) => row.version as number);

/** The pid of the backend running the index build of `name`, once it waits for a lock (polled: no timers). */
async function waitingIndexBuild(name: string): Promise<number> {
  for (;;) {
    const { rows } = await admin!.query(`SELECT pid FROM pg_stat_activity WHERE query LIKE 'CREATE INDEX%' AND query LIKE $1 AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`, [`%"${name}".session_entries%`]);
    if (rows.length > 0) return rows[0].pid as number;
  }
}

/** A transaction that holds an uncommitted insert into session_entries: an index build waits for it. */
async function openWriter(name: string): Promise<pg.PoolClient> {
  const blocker = await admin!.connect();
  await blocker.query('BEGIN');
  await blocker.query(`INSERT INTO "${name}".sessions (session_id, revision) VALUES ('blocker', 1)`);
  await blocker.query(`INSERT INTO "${name}".session_entries (session_id, seq, bytes, entry) VALUES ('blocker', 1, 2, '{}')`);
  return blocker;
}

describe.skipIf(!postgres.reachable)('migratePostgres: the entry-id index (migration 4)', () => {
  it('builds the index of a schema with rows without stopping writers: appends (of a store starting up meanwhile too) are stored while the build waits', async () => {
    const name = await schemaAtVersion3();
    const blocker = await openWriter(name);
    try {
      const migrating = migratePostgres({ pool: pool(), schema: name });
      await waitingIndexBuild(name);
      // A plain CREATE INDEX would hold a lock that queues this insert behind it until the build ends.
      const store = postgresSessionStore({ pool: pool(), schema: name });
      await store.append('s0', [entryMaker('s0', 2).userText('three')], { expectedRevision: 2 });
      const make = entryMaker('new');
      await store.append('new', [make.userText('hello')], { expectedRevision: 0 });
      expect(await entryIdIndex(name)).toBe('invalid');
      expect(await versions(name)).toEqual([1, 2, 3]);
      await blocker.query('COMMIT');
      expect(await migrating).toEqual({ schema: name, from: 3, to: POSTGRES_SCHEMA_VERSION });
    } finally {
      blocker.release();
    }
    expect(await entryIdIndex(name)).toBe('valid');
    expect(await versions(name)).toEqual([1, 2, 3, 4]);
    expect((await loadEntries(postgresSessionStore({ pool: pool(), schema: name, migrate: false }), 's0')).map((entry) => entry.seq)).toEqual([1, 2, 3]);
  });

  it('builds the index again after an attempt that died halfway left it INVALID (its connection killed)', async () => {
    const name = await schemaAtVersion3();
    const blocker = await openWriter(name);
    try {
      const migrating = migratePostgres({ pool: pool(), schema: name });
      // Its failure is awaited from the start: the migration may see its connection end before the
      // admin query that ends it returns (an unhandled rejection meanwhile, on a loaded machine).
      const failed = expect(migrating).rejects.toThrow(/terminat/i);
      await admin!.query('SELECT pg_terminate_backend($1)', [await waitingIndexBuild(name)]);
      await failed;
      await blocker.query('ROLLBACK');
    } finally {
      blocker.release();
    }
    expect(await entryIdIndex(name)).toBe('invalid');
    expect(await versions(name)).toEqual([1, 2, 3]);
    // The stores check the version; an INVALID index is not version 4.
    await expect(postgresSessionStore({ pool: pool(), schema: name, migrate: false }).list()).rejects.toSatisfy(ConfigurationError.isInstance);
    expect(await migratePostgres({ pool: pool(), schema: name })).toEqual({ schema: name, from: 3, to: POSTGRES_SCHEMA_VERSION });
    expect(await entryIdIndex(name)).toBe('valid');
    expect(await versions(name)).toEqual([1, 2, 3, 4]);
    const { rows } = await admin!.query(`SELECT count(*)::int AS n FROM pg_class WHERE relname LIKE 'session_entries_entry_id%' AND relnamespace = $1::regnamespace`, [`"${name}"`]);
    expect(rows[0].n).toBe(1);
  });

  it("a store that found another process building the index is not taken as migrated: the pool's next store migrates again and records the version", async () => {
    const name = await schemaAtVersion3(2);
    // What another process building the index holds (a session-level advisory lock).
    const locker = await admin!.connect();
    const shared = pool();
    try {
      await locker.query('SELECT pg_advisory_lock(hashtext($1))', [`agent-harness:migrate-index:${name}`]);
      expect(await postgresSessionStore({ pool: shared, schema: name }).list()).toHaveLength(2);
      expect(await versions(name)).toEqual([1, 2, 3]);
      await locker.query('SELECT pg_advisory_unlock(hashtext($1))', [`agent-harness:migrate-index:${name}`]);
    } finally {
      locker.release();
    }
    expect(await postgresSessionStore({ pool: shared, schema: name }).list()).toHaveLength(2);
    expect(await versions(name)).toEqual([1, 2, 3, 4]);
    expect(await entryIdIndex(name)).toBe('valid');
  });

  it('two processes migrating one schema with rows at once: both resolve, the index is built once and the version recorded once', async () => {
    const name = await schemaAtVersion3();
    const blocker = await openWriter(name);
    let results;
    try {
      const first = migratePostgres({ pool: pool(), schema: name });
      await waitingIndexBuild(name);
      // The second finds the first building: it neither waits for it (a deadlock with the build, which waits for its snapshot) nor builds a second index.
      const second = await migratePostgres({ pool: pool(), schema: name });
      expect(second).toEqual({ schema: name, from: 3, to: 3 });
      await blocker.query('COMMIT');
      results = [await first, second];
    } finally {
      blocker.release();
    }
    expect(results[0]).toEqual({ schema: name, from: 3, to: POSTGRES_SCHEMA_VERSION });
    expect(await versions(name)).toEqual([1, 2, 3, 4]);
    expect(await entryIdIndex(name)).toBe('valid');
    // And raced from the start, with no writer holding them back: every one resolves at version 4 or
    // finds the build under way; the index and the version are there once afterwards.
    const raced = await schemaAtVersion3(5);
    const outcomes = await Promise.all([pool(), pool(), pool()].map((each) => migratePostgres({ pool: each, schema: raced })));
    for (const outcome of outcomes) expect([3, POSTGRES_SCHEMA_VERSION]).toContain(outcome.to);
    expect(outcomes.some((outcome) => outcome.to === POSTGRES_SCHEMA_VERSION)).toBe(true);
    expect(await versions(raced)).toEqual([1, 2, 3, 4]);
    expect(await entryIdIndex(raced)).toBe('valid');
  });

  it('refuses an entry id already stored with other content while the index is still being built (the check does not need it)', async () => {
    const name = await schemaAtVersion3(3);
    const blocker = await openWriter(name);
    try {
      const migrating = migratePostgres({ pool: pool(), schema: name });
      await waitingIndexBuild(name);
      const store = postgresSessionStore({ pool: pool(), schema: name });
      const taken = { ...entryMaker('s1', 2).userText('other content'), id: 's1-entry-1' } as SessionEntry;
      await expect(store.append('s1', [taken], { expectedRevision: 2 })).rejects.toSatisfy(ConfigurationError.isInstance);
      await blocker.query('COMMIT');
      await migrating;
    } finally {
      blocker.release();
    }
  });

  it('the published concurrent SQL, run statement by statement outside a transaction, brings a schema with rows to version 4 while a writer is open', async () => {
    const name = await schemaAtVersion3(3);
    const blocker = await openWriter(name);
    const statements = postgresConcurrentIndexSql({ schema: name }).split('\n').filter((line) => line.length > 0 && !line.startsWith('--'));
    const applying = (async () => {
      for (const statement of statements) await admin!.query(statement);
    })();
    await waitingIndexBuild(name);
    await postgresSessionStore({ pool: pool(), schema: name }).append('s0', [entryMaker('s0', 2).userText('three')], { expectedRevision: 2 });
    await blocker.query('COMMIT');
    blocker.release();
    await applying;
    expect(await entryIdIndex(name)).toBe('valid');
    expect(await versions(name)).toEqual([1, 2, 3, 4]);
    await postgresSessionStore({ pool: pool(), schema: name, migrate: false }).list();
  });
});
