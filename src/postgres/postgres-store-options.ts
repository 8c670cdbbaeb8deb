import { anything, checkOptions, isBoolean, isNonEmptyString, type OptionsSpec } from '../options/index.js';
import { checkPostgresSchema, migratePostgres } from './postgres-migrations.js';
import { assertPostgresPool, type PostgresPool } from './postgres-pool.js';
import { DEFAULT_POSTGRES_SCHEMA, quotedSchema } from './postgres-schema.js';
import { surviveIdleConnectionErrors } from './survive-idle-connection-errors.js';

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
   * version on first use.
   * @default true
   */
  migrate?: boolean;
}

const POSTGRES_STORE_OPTIONS: OptionsSpec<Record<string, unknown>> = { pool: anything, schema: isNonEmptyString, migrate: isBoolean };

/** The quoted schema and a once-only readiness check (migration or version check). */
export function storeSetup(options: PostgresStoreOptions, storeName: string, extra: OptionsSpec<Record<string, unknown>> = {}): { s: string; ready: () => Promise<void> } {
  assertPostgresPool(options, storeName);
  // Strict: a misspelled option (`schemaName`, `migrations`) is an error, not a silent default.
  checkOptions<Record<string, unknown>>(options as unknown as Record<string, unknown>, { ...POSTGRES_STORE_OPTIONS, ...extra }, { owner: storeName, usage: `${storeName}({ pool, schema: 'agent_harness' })` });
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  const s = quotedSchema(schema);
  surviveIdleConnectionErrors(options.pool);
  let pending: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    pending ??= (options.migrate === false ? checkPostgresSchema({ pool: options.pool, schema }) : migratePostgres({ pool: options.pool, schema }).then(() => undefined)).catch(
      (error: unknown) => {
        // Not remembered: the next call tries again (the database may come up later).
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  return { s, ready };
}
