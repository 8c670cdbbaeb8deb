/**
 * The server-backed session stores a benchmark measures beside the file and memory stores:
 * PostgreSQL and Redis, the loopback servers the tests use (or `AGENT_HARNESS_PG_URL` /
 * `AGENT_HARNESS_REDIS_URL`), each under a schema or key prefix of its own (`tag`), dropped by
 * `dispose`. A server that does not answer is left out with one line saying so.
 */
import path from 'node:path';

/**
 * `{ name, store(build), dispose }` for each server that answers; `store(build)` opens the store
 * of that build (`builds.this`, or `builds.base` when `BENCH_BASE` names another build).
 */
export async function remoteStores({ builds, base, tag }) {
  const found = [];
  try {
    const { default: pg } = await import('pg');
    const url = process.env.AGENT_HARNESS_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    await probe.connect();
    await probe.end();
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    const own = await import('../../dist/postgres/index.js');
    const other = base ? await import(path.join(path.resolve(base), 'postgres', 'index.js')) : undefined;
    found.push({
      name: 'PostgreSQL',
      store: (build) => (build === builds.this || !other ? own : other).postgresSessionStore({ pool, schema: tag }),
      dispose: async () => {
        await pool.query(`DROP SCHEMA IF EXISTS "${tag}" CASCADE`);
        await pool.end();
      },
    });
  } catch (error) {
    console.log(`(PostgreSQL rows left out: ${error.message}; set AGENT_HARNESS_PG_URL)`);
  }
  try {
    const { Redis } = await import('ioredis');
    const url = process.env.AGENT_HARNESS_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const client = new Redis(url, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 1, retryStrategy: () => null });
    await client.connect();
    const own = await import('../../dist/redis/index.js');
    const other = base ? await import(path.join(path.resolve(base), 'redis', 'index.js')) : undefined;
    const keyPrefix = `${tag}:`;
    found.push({
      name: 'Redis',
      store: (build) => (build === builds.this || !other ? own : other).redisSessionStore({ client, keyPrefix }),
      dispose: async () => {
        const keys = await client.keys(`${keyPrefix}*`);
        if (keys.length > 0) await client.del(...keys);
        client.disconnect();
      },
    });
  } catch (error) {
    console.log(`(Redis rows left out: ${error.message}; set AGENT_HARNESS_REDIS_URL)`);
  }
  return found;
}
