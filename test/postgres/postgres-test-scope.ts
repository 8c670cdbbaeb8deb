import type pg from 'pg';
import { afterAll, afterEach } from 'vitest';
import { dropSchema, postgres, testPool, testSchema } from './postgres-test-database.js';

/** The schemas and pools of one test file, cleaned up by the hooks {@link postgresTestScope} registers. */
export interface PostgresTestScope {
  /** A pool for editing rows by hand and dropping the schemas (undefined when the server is not reachable: the tests skip). */
  admin: pg.Pool | undefined;
  /** A fresh schema name, dropped after the test. */
  schema(): string;
  /** A pool of its own on the test server, ended after the test. */
  pool(max?: number): pg.Pool;
}

/**
 * The set-up of a PostgreSQL test file: after each test the pools it opened are ended and the
 * schemas it named dropped, after all of them the admin pool is ended. Call it at the top level of
 * the file (it registers `afterEach` and `afterAll`); with no server reachable it opens nothing.
 * @param adminMax - the admin pool's size.
 */
export function postgresTestScope(adminMax = 2): PostgresTestScope {
  const admin = postgres.reachable ? testPool(adminMax) : undefined;
  const pools: pg.Pool[] = [];
  const schemas: string[] = [];
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((created) => created.end()));
    for (const name of schemas.splice(0)) await dropSchema(admin!, name);
  });
  afterAll(() => admin?.end());
  return {
    admin,
    schema: () => {
      const name = testSchema();
      schemas.push(name);
      return name;
    },
    pool: (max = 4) => {
      const created = testPool(max);
      pools.push(created);
      return created;
    },
  };
}
