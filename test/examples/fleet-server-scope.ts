// The worker fleet example's server, started once for a describe block on a schema and queue of
// its own (offline, on the demo model) and cleaned up after it: shared by the fleet's tests.
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { postgres } from '../postgres/postgres-test-database.js';
import { redis } from '../redis/redis-test-server.js';
import { uniqueName } from '../server-under-test.js';
import { dropPrefix } from '../bullmq/fleet-stores.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { tempDirs } from '../temp-dirs.js';

/** What a test reads of the fleet started for it. */
export interface FleetServerScope {
  /** The PostgreSQL schema of its stores (also a prefix for session ids of the test's own). */
  readonly schema: string;
  /** The BullMQ queue name. */
  readonly queueName: string;
  /** The JSON-lines file the fleet's tools log each execution to. */
  readonly logFile: string;
  /** The running server (set once `beforeAll` has run). */
  readonly fleet: ServerProcess;
}

/** Registers `beforeAll`/`afterAll` that start the fleet server with `workers` worker processes and tear it down. */
export function fleetServerScope(name: string, workers: number): FleetServerScope {
  // Its tool log's folder goes after the block's last test.
  const tempDir = tempDirs();
  const schema = uniqueName(`ah_${name}`);
  const queueName = uniqueName(name.replace(/_/g, '-'));
  const logFile = join(tempDir(`ah-${name}-`), 'tools.jsonl');
  let fleet: ServerProcess | undefined;
  beforeAll(async () => {
    fleet = await startServerProcess({
      script: 'examples/worker-fleet/server.ts',
      env: { PORT: '0', WORKERS: String(workers), DATABASE_URL: postgres.url, REDIS_URL: redis.url, FLEET_SCHEMA: schema, FLEET_QUEUE: queueName, FLEET_TOOL_LOG: logFile, ANTHROPIC_API_KEY: '' },
      startTimeoutMs: 60_000,
    });
  }, 90_000);
  afterAll(async () => {
    await fleet?.stop('SIGTERM');
    const pool = new pg.Pool({ connectionString: postgres.url });
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
    const client = new Redis(redis.url);
    await dropPrefix(client, `bull:${queueName}:`);
    await client.quit();
  });
  return {
    schema,
    queueName,
    logFile,
    get fleet() {
      if (!fleet) throw new Error('the fleet server is not started yet (read scope.fleet inside a test)');
      return fleet;
    },
  };
}
