import { ConfigurationError } from '../errors/configuration-error.js';
import { UnsupportedSchemaVersionError } from '../errors/unsupported-schema-version-error.js';
import { toError } from '../errors/describe-thrown.js';
import { buildIndexConcurrently, type ConcurrentIndex } from './build-index-concurrently.js';
import { assertPostgresPool, inTransaction, type PostgresPool, type PostgresPoolClient } from './postgres-pool.js';
import { DEFAULT_POSTGRES_SCHEMA, entryIdSql, quotedSchema, toNumber } from './postgres-schema.js';
import { argumentError, isObjectValue } from '../errors/argument-error.js';

/** One step of the database schema. */
interface Migration {
  version: number;
  description: string;
  /** The statements, for the quoted schema `s`: what a new schema runs in its one transaction. */
  sql: (s: string) => string;
  /**
   * An index that a schema with rows in it builds with `CREATE INDEX CONCURRENTLY` instead of
   * `sql`, outside the migration's transaction, so that writers are not stopped while it builds.
   */
  index?: ConcurrentIndex;
}

/** The index of migration 4: a session's entries by id. */
const ENTRY_ID_INDEX: ConcurrentIndex = {
  name: 'session_entries_entry_id',
  on: (s) => `ON ${s}.session_entries (session_id, ${entryIdSql('entry')})`,
};

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'sessions, session entries, plans',
    sql: (s) => `
CREATE TABLE ${s}.sessions (
  session_id       text PRIMARY KEY,
  revision         bigint NOT NULL DEFAULT 0 CHECK (revision >= 0),
  pending          json,
  pending_rule     integer NOT NULL DEFAULT 0,
  waiting          boolean NOT NULL DEFAULT false,
  lease_holder     text,
  lease_token      bigint NOT NULL DEFAULT 0,
  lease_expires_at bigint NOT NULL DEFAULT 0,
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_waiting ON ${s}.sessions (session_id) WHERE waiting;
CREATE INDEX sessions_pending_rule ON ${s}.sessions (pending_rule);
CREATE TABLE ${s}.session_entries (
  session_id text NOT NULL REFERENCES ${s}.sessions (session_id),
  seq        bigint NOT NULL CHECK (seq > 0),
  bytes      integer NOT NULL,
  entry      json NOT NULL,
  PRIMARY KEY (session_id, seq)
);
CREATE TABLE ${s}.plans (
  name       text PRIMARY KEY,
  text       text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);`,
  },
  {
    version: 2,
    description: 'sessions.last_id, the id of the last entry',
    // Null for rows written before: their next append sets it.
    sql: (s) => `
ALTER TABLE ${s}.sessions ADD COLUMN last_id text;`,
  },
  {
    version: 3,
    description: 'plans.text_utf8, a plan text with a NUL character as UTF-8 bytes',
    // PostgreSQL text cannot hold NUL: such a plan goes to text_utf8, every other one stays in
    // text as before, so plans written before read unchanged.
    sql: (s) => `
ALTER TABLE ${s}.plans ALTER COLUMN text DROP NOT NULL;
ALTER TABLE ${s}.plans ADD COLUMN text_utf8 bytea;
ALTER TABLE ${s}.plans ADD CONSTRAINT plans_text_or_text_utf8 CHECK ((text IS NULL) <> (text_utf8 IS NULL));`,
  },
  {
    version: 4,
    description: 'session_entries_entry_id, the entries of a session by id',
    // Not unique: the same entry stored again under a new number is a copy, which loading skips.
    // An append finds the stored entries with its ids through it, to refuse other content. The
    // table of a schema migrated before has rows: built concurrently there (see migratePostgres).
    sql: (s) => `
CREATE INDEX ${ENTRY_ID_INDEX.name} ${ENTRY_ID_INDEX.on(s)};`,
    index: ENTRY_ID_INDEX,
  },
];

/** The newest database schema version this build knows. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

const SUPPORTED = MIGRATIONS.map((migration) => migration.version);

/** Options of {@link migratePostgres} and {@link postgresMigrationSql}. */
export interface PostgresMigrationOptions {
  /** The host's `pg.Pool`. */
  pool: PostgresPool;
  /**
   * The schema the tables live in; created when missing.
   * @default 'agent_harness'
   */
  schema?: string;
}

/** What {@link migratePostgres} did. */
export interface PostgresMigrationResult {
  /** The schema migrated. */
  schema: string;
  /** The schema version before (0 for a new schema). */
  from: number;
  /**
   * The schema version now: {@link POSTGRES_SCHEMA_VERSION}, or lower while another process
   * builds an index of a later version concurrently (it records the version once the index is
   * built; the stores work meanwhile, as an append checks entry ids also without the index).
   */
  to: number;
}

function versionTableSql(s: string): string {
  return `CREATE SCHEMA IF NOT EXISTS ${s};
CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (
  version     integer PRIMARY KEY,
  description text NOT NULL,
  applied_at  timestamptz NOT NULL DEFAULT now()
);`;
}

/**
 * The whole SQL that brings an empty database to {@link POSTGRES_SCHEMA_VERSION}, for hosts that
 * apply migrations with their own tool (then pass `migrate: false` to the stores).
 */
export function postgresMigrationSql(options: { schema?: string } = {}): string {
  if (!isObjectValue(options)) throw argumentError('postgresMigrationSql', 'options', 'an options object ({ schema }) or nothing', options);
  const s = quotedSchema(options.schema ?? DEFAULT_POSTGRES_SCHEMA);
  const steps = MIGRATIONS.map(
    (migration) => `-- ${migration.version}: ${migration.description}${migration.sql(s)}\nINSERT INTO ${s}.schema_migrations (version, description) VALUES (${migration.version}, '${migration.description}');`,
  );
  return `${versionTableSql(s)}\n\n${steps.join('\n\n')}\n`;
}

/**
 * The SQL that upgrades a schema with rows in it without stopping writers, for hosts that apply
 * migrations with their own tool: per index-building migration, statements to run one by one,
 * outside a transaction (PostgreSQL refuses `CONCURRENTLY` in one). docs/stores.md shows it.
 */
export function postgresConcurrentIndexSql(options: { schema?: string } = {}): string {
  const s = quotedSchema(options.schema ?? DEFAULT_POSTGRES_SCHEMA);
  const steps = MIGRATIONS.filter((migration) => migration.index !== undefined).map((migration) => {
    const index = migration.index!;
    return `-- ${migration.version}: ${migration.description}
-- If an earlier build died halfway (the index is there, INVALID), first: DROP INDEX CONCURRENTLY ${s}.${index.name};
CREATE INDEX CONCURRENTLY IF NOT EXISTS ${index.name} ${index.on(s)};
INSERT INTO ${s}.schema_migrations (version, description) VALUES (${migration.version}, '${migration.description}') ON CONFLICT (version) DO NOTHING;`;
  });
  return `${steps.join('\n\n')}\n`;
}

async function currentVersion(client: Pick<PostgresPoolClient, 'query'>, schema: string): Promise<number | undefined> {
  const { rows } = await client.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [`${quotedSchema(schema)}.schema_migrations`]);
  if (rows[0]?.present !== true) return undefined;
  const result = await client.query(`SELECT coalesce(max(version), 0) AS version FROM ${quotedSchema(schema)}.schema_migrations`);
  return toNumber(result.rows[0]?.version ?? 0);
}

function newerError(schema: string, found: number): UnsupportedSchemaVersionError {
  return new UnsupportedSchemaVersionError(`the PostgreSQL schema "${schema}"`, found, SUPPORTED);
}

/**
 * Creates or upgrades the stores' tables, under an advisory lock so that several processes
 * starting at once migrate once. A new schema is created in one transaction. An existing one is
 * upgraded in one transaction too, except for an index on a table that has rows (migration 4's
 * on `session_entries`): that one is built with `CREATE INDEX CONCURRENTLY` after the
 * transaction, so appends go on while it builds; the version is recorded once the index is valid
 * (an attempt that died halfway is built again by the next call). A process that finds another
 * one building it does not wait for it (see {@link PostgresMigrationResult.to}). Safe to call on
 * every start.
 * @throws UnsupportedSchemaVersionError when the database was migrated by a newer agent-harness.
 */
export async function migratePostgres(options: PostgresMigrationOptions): Promise<PostgresMigrationResult> {
  assertPostgresPool(options, 'migratePostgres');
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  const s = quotedSchema(schema);
  let from: number | undefined;
  for (;;) {
    // The steps up to the first index to build concurrently, in one transaction.
    const step = await inTransaction(options.pool, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`agent-harness:migrate:${schema}`]);
      await client.query(versionTableSql(s));
      const version = (await currentVersion(client, schema)) ?? 0;
      if (version > POSTGRES_SCHEMA_VERSION) throw newerError(schema, version);
      for (const migration of MIGRATIONS) {
        if (migration.version <= version) continue;
        // A new schema's tables are empty: its indexes are built in its transaction.
        if (migration.index !== undefined && version > 0) return { version, deferred: migration };
        await client.query(migration.sql(s));
        await client.query(`INSERT INTO ${s}.schema_migrations (version, description) VALUES ($1, $2)`, [migration.version, migration.description]);
      }
      return { version, deferred: undefined };
    });
    from ??= step.version;
    const { deferred } = step;
    if (deferred === undefined) return { schema, from, to: POSTGRES_SCHEMA_VERSION };
    const client = await options.pool.connect();
    // The build may take long: a connection PostgreSQL ends meanwhile is reported to the statement
    // under way (it rejects) and as the client's 'error' event, which would crash the process unheard.
    const ignore = (): undefined => undefined;
    const emitter = client as PostgresPoolClient & { on?: (event: string, listener: () => void) => unknown; off?: (event: string, listener: () => void) => unknown };
    emitter.on?.('error', ignore);
    let broken: Error | undefined;
    try {
      const build = await buildIndexConcurrently(client, s, deferred.index!, `agent-harness:migrate-index:${schema}`);
      if (build === 'busy') return { schema, from, to: deferred.version - 1 };
      await client.query(`INSERT INTO ${s}.schema_migrations (version, description) VALUES ($1, $2) ON CONFLICT (version) DO NOTHING`, [deferred.version, deferred.description]);
    } catch (error) {
      // A connection a statement failed on may be in any state: not given back to the pool for reuse.
      broken = toError(error);
      throw error;
    } finally {
      client.release(broken);
      emitter.off?.('error', ignore);
    }
  }
}

/**
 * Checks that the schema is at the version this build writes, without changing anything.
 * @throws ConfigurationError when it is missing or older; UnsupportedSchemaVersionError when newer.
 */
export async function checkPostgresSchema(options: PostgresMigrationOptions): Promise<void> {
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  const version = (await currentVersion(options.pool, schema)) ?? 0;
  if (version > POSTGRES_SCHEMA_VERSION) throw newerError(schema, version);
  if (version < POSTGRES_SCHEMA_VERSION) {
    throw new ConfigurationError(
      `The PostgreSQL schema "${schema}" is at version ${version}, this agent-harness needs ${POSTGRES_SCHEMA_VERSION}: run migratePostgres({ pool, schema: "${schema}" }) (or the SQL of postgresMigrationSql()), or leave the stores' migrate option on.`,
    );
  }
}
