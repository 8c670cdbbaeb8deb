import type { PostgresPool } from './postgres-pool.js';
import { isPlainPgPool } from './prepared-pool.js';

/**
 * True for a `pg.Pool` as `pg` makes it (see `isPlainPgPool`) whose client writes the wire
 * protocol itself (`pg`'s JavaScript client, which sends a Buffer parameter in binary format, the
 * text of a `json` parameter). The session store sends such a pool an append's entries as bytes.
 * A pool of `pg-native` (libpq) or one the host wrapped gets them as text.
 */
export function takesJsonBytes(pool: PostgresPool): boolean {
  if (!isPlainPgPool(pool)) return false;
  const client = (pool as PostgresPool & { Client: { prototype?: Record<string, unknown> } }).Client;
  return typeof client.prototype?._handleReadyForQuery === 'function';
}
