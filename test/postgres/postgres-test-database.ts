import pg from 'pg';
import { serverUnderTest, uniqueName } from '../server-under-test.js';

/** The server the PostgreSQL tests use: `AGENT_HARNESS_PG_URL`, else the loopback default. */
export const postgres = await serverUnderTest('PostgreSQL', 'AGENT_HARNESS_PG_URL', 'postgres://postgres@127.0.0.1:5432/test', async (url) => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  await client.connect();
  await client.end();
});

/** A pool on the test server; end it when done. */
export function testPool(max = 4): pg.Pool {
  return new pg.Pool({ connectionString: postgres.url, max });
}

/** A fresh schema name for one test (dropped by {@link dropSchema}). */
export const testSchema = () => uniqueName('ah_test');

/** Drops a test schema and everything in it. */
export async function dropSchema(pool: pg.Pool, schema: string): Promise<void> {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
