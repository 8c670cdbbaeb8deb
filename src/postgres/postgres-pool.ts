import { ConfigurationError } from '../errors/configuration-error.js';
import { toError } from '../errors/describe-thrown.js';

/** What the stores need of a query result (a `pg` `QueryResult` fits). */
export interface PostgresQueryResult {
  /** The rows, one object per row keyed by column name. */
  rows: Array<Record<string, unknown>>;
  /** Rows the statement touched. */
  rowCount: number | null;
}

/** A connection taken from a pool, for statements that must run on one connection (a `pg` `PoolClient` fits). */
export interface PostgresPoolClient {
  /** Runs one statement (or several, without parameters) on this connection. */
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  /** Gives the connection back; an error destroys it. */
  release(error?: Error | boolean): void;
}

/**
 * The part of a `pg.Pool` the stores use: the host creates, sizes and ends the pool, the stores
 * only borrow connections. The package never imports `pg` itself.
 */
export interface PostgresPool {
  /** Runs one statement on any connection of the pool. */
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  /** Takes a connection for a transaction; the stores release it. */
  connect(): Promise<PostgresPoolClient>;
}

/**
 * Checks that `options.pool` is a pg pool (`query` and `connect`), for everything in this entry
 * point that takes one.
 * @param owner - The function or store, for the message, e.g. `postgresSessionStore`.
 * @throws ConfigurationError naming the owner and how to make a pool.
 */
export function assertPostgresPool(options: { pool?: unknown } | undefined, owner: string): void {
  const pool = (options as { pool?: { query?: unknown; connect?: unknown } } | null | undefined)?.pool;
  if (typeof pool?.query !== 'function' || typeof pool.connect !== 'function') {
    throw new ConfigurationError(`${owner} needs options.pool, a pg.Pool (e.g. new pg.Pool({ connectionString: process.env.DATABASE_URL })), got ${typeof pool}.`);
  }
}

/** Runs `task` in a transaction on one connection of the pool; rolls back when it throws. */
export async function inTransaction<T>(pool: PostgresPool, task: (client: PostgresPoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await task(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken = toError(rollbackError);
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
