import type { PostgresPool } from './postgres-pool.js';

/** Marks a pool this package already listens on, so several stores on one pool add one listener. */
const LISTENING = Symbol.for('agent-harness.postgres.idleErrorListener');

/**
 * Keeps the process alive when PostgreSQL ends one of the pool's idle connections (a server
 * restart, a failover, `pg_terminate_backend`, a proxy's idle timeout): a `pg.Pool` reports that as
 * its `'error'` event, and Node crashes on an `'error'` event nobody listens to, taking every job of
 * a worker down with it. The pool has already dropped the connection and opens a new one for the
 * next call, so there is nothing else to do. Only when the host listens for none itself (its own
 * listener then sees them all); a pool that is no event emitter is left alone.
 */
export function surviveIdleConnectionErrors(pool: PostgresPool): void {
  const emitter = pool as PostgresPool & { on?: unknown; listenerCount?: unknown; [LISTENING]?: true };
  if (typeof emitter.on !== 'function' || typeof emitter.listenerCount !== 'function' || emitter[LISTENING]) return;
  if ((emitter.listenerCount as (event: string) => number).call(pool, 'error') > 0) return;
  (emitter.on as (event: string, listener: () => void) => void).call(pool, 'error', () => undefined);
  emitter[LISTENING] = true;
}
