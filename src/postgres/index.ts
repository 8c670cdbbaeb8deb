/**
 * `agent-harness/postgres`: a session store and a plan store in PostgreSQL, over the host's
 * `pg.Pool` (`pg` is an optional peer dependency; this entry never imports it).
 * @packageDocumentation
 */
export { postgresSessionStore, type PostgresSessionStoreOptions } from './postgres-session-store.js';
export { postgresPlanStore, type PostgresPlanStoreOptions } from './postgres-plan-store.js';
export type { PostgresStoreOptions } from './postgres-store-options.js';
export {
  migratePostgres,
  postgresMigrationSql,
  POSTGRES_SCHEMA_VERSION,
  type PostgresMigrationOptions,
  type PostgresMigrationResult,
} from './postgres-migrations.js';
export type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from './postgres-pool.js';
