import { anything, checkOptions, isBoolean, isNonEmptyString, type OptionsSpec } from '../options/index.js';
import { checkPostgresSchema, migratePostgres, POSTGRES_SCHEMA_VERSION } from './postgres-migrations.js';
import { assertPostgresPool, type PostgresPool, type PostgresQueryResult } from './postgres-pool.js';
import { DEFAULT_POSTGRES_SCHEMA, quotedSchema } from './postgres-schema.js';
import { surviveIdleConnectionErrors } from './survive-idle-connection-errors.js';
import { oncePerKey, type OncePerKey } from '../lazy/once-per-key.js';

/** Options shared by the PostgreSQL stores. */
export interface PostgresStoreOptions {
  /**
   * The host's `pg.Pool` (`new pg.Pool({ connectionString })`). The host owns it: sizes it, ends
   * it; the stores borrow a connection per call. When the host listens for none of the pool's
   * `'error'` events, the store adds a listener that ignores them: an idle connection that
   * PostgreSQL ended (a restart, a failover) would otherwise crash the process.
   */
  pool: PostgresPool;
  /**
   * The schema the tables live in. Give each application (or each test run) its own. A plain
   * lower-case identifier (letters, digits and `_`, at most 63, not starting with a digit), not
   * starting with `pg_` (PostgreSQL keeps those for itself); another name is refused when the store
   * is created.
   * @default 'agent_harness'
   */
  schema?: string;
  /**
   * Create or upgrade the tables on first use (`migratePostgres`, idempotent, under an advisory
   * lock). Turn it off when the runtime role may not change the schema: apply
   * `postgresMigrationSql()` with your own migration tool, and the stores then only check the
   * version on first use. Either is done once per pool and schema in a process: a store made
   * later on the same pool does not migrate or check again (one that failed is tried again).
   * @default true
   */
  migrate?: boolean;
}

const POSTGRES_STORE_OPTIONS: OptionsSpec<Record<string, unknown>> = { pool: anything, schema: isNonEmptyString, migrate: isBoolean };

/**
 * Per pool, the schemas a store of this process found ready (migrated, or checked to be at this
 * build's version): a later store on the same pool and schema does not migrate or check again,
 * as a store kept for the life of the process would not. A host that makes its store per request
 * would otherwise run the migration's transaction (five round trips) in every request.
 */
const readyByPool: OncePerKey<void> = new WeakMap();

/** SQLSTATEs of a statement that found the store's tables (42P01) or its schema (3F000) gone. */
const MISSING_CODES = new Set(['42P01', '3F000']);

/**
 * The quoted schema, a once-only readiness check (migration or version check), once per pool and
 * schema in a process, and the pool to send statements through: a statement that finds the tables
 * or the schema gone (dropped under the running process) makes the next readiness check run again.
 */
export function storeSetup(options: PostgresStoreOptions, storeName: string, extra: OptionsSpec<Record<string, unknown>> = {}): { s: string; ready: () => Promise<void>; pool: PostgresPool } {
  assertPostgresPool(options, storeName);
  // Strict: a misspelled option (`schemaName`, `migrations`) is an error, not a silent default.
  checkOptions<Record<string, unknown>>(options as unknown as Record<string, unknown>, { ...POSTGRES_STORE_OPTIONS, ...extra }, { owner: storeName, usage: `${storeName}({ pool, schema: 'agent_harness' })` });
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  const s = quotedSchema(schema);
  surviveIdleConnectionErrors(options.pool);
  const pool = options.pool as object;
  const forget = () => readyByPool.get(pool)?.delete(schema);
  // A check that failed is tried again by the next call (the database may come up later).
  const check = (): Promise<void> =>
    options.migrate === false
      ? checkPostgresSchema({ pool: options.pool, schema })
      : migratePostgres({ pool: options.pool, schema }).then(({ to }) => {
          // Another process still building an index of the last migration: the next store migrates again (and may record it).
          if (to < POSTGRES_SCHEMA_VERSION) forget();
        });
  const ready = (): Promise<void> => oncePerKey(readyByPool, pool, schema, check);
  const query = options.pool.query as (...args: unknown[]) => Promise<PostgresQueryResult>;
  const watched: PostgresPool = {
    // Arguments passed on as given: a named statement is an object.
    query: ((...args: unknown[]) =>
      query.apply(options.pool, args).catch((error: unknown) => {
        if (MISSING_CODES.has(String((error as { code?: unknown } | null)?.code))) forget();
        throw error;
      })) as PostgresPool['query'],
    connect: () => options.pool.connect(),
  };
  return { s, ready, pool: watched };
}
