// One worker process of bench/fleet.bench.mjs, on the built package (starts in about a second).
// Environment: see placeToEnv in test/bullmq/fleet-stores.ts, plus FLEET_LOG, FLEET_MODEL_URL,
// FLEET_LEASE_MS, FLEET_LOCK_MS, FLEET_USAGE (a folder: the worker keeps its CPU time and the
// statements or commands its session store sent in `<pid>.json` there, every 250 ms and when it
// gets SIGUSR2, after which it exits; a worker killed keeps what it wrote last).
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { z } from 'zod';
import { anthropicModel, createAgent, defineTool } from '../dist/index.js';
import { createAgentWorker } from '../dist/bullmq/index.js';
import { postgresSessionStore } from '../dist/postgres/index.js';
import { redisSessionStore } from '../dist/redis/index.js';

const env = process.env;
/** What the session store sent: statements to PostgreSQL, or commands to Redis (BullMQ's own not counted). */
let storeRequests = 0;
let store;
if (env.FLEET_STORE === 'postgres') {
  // Counted on the client, under the pool: the store still sees a plain pg.Pool (and prepares its statements).
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (...args) {
    storeRequests++;
    return query.apply(this, args);
  };
  store = postgresSessionStore({ pool: new pg.Pool({ connectionString: env.FLEET_PG_URL, max: 4 }), schema: env.FLEET_NAMESPACE });
} else {
  const client = new Redis(env.FLEET_REDIS_URL, { maxRetriesPerRequest: 1 });
  const sendCommand = client.sendCommand;
  client.sendCommand = function (...args) {
    storeRequests++;
    return sendCommand.apply(this, args);
  };
  store = redisSessionStore({ client, keyPrefix: env.FLEET_NAMESPACE });
}

const logged = (name) => ({ input, toolUseId }) => {
  appendFileSync(env.FLEET_LOG, `${JSON.stringify({ toolUseId, name, n: input.n, pid: process.pid })}\n`);
  return `${name} ${input.n} done`;
};
const tools = [
  defineTool({ name: 'step', description: 'Carries out one step of the task.', inputSchema: z.object({ n: z.number().int() }), readOnly: true, execute: logged('step') }),
  defineTool({ name: 'publish', description: 'Publishes the work so far.', inputSchema: z.object({ n: z.number().int() }), kind: 'edit', execute: logged('publish') }),
];
const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'offline', baseURL: env.FLEET_MODEL_URL, maxRetries: 0 });
const url = new URL(env.FLEET_REDIS_URL);
createAgentWorker({
  connection: { host: url.hostname, port: Number(url.port || 6379) },
  queueName: env.FLEET_QUEUE,
  prefix: env.FLEET_BULL_PREFIX,
  store,
  concurrency: Number(env.FLEET_CONCURRENCY ?? 8),
  leaseTtlMs: Number(env.FLEET_LEASE_MS),
  lockDurationMs: Number(env.FLEET_LOCK_MS),
  heldRetryMs: 200,
  createAgent: (session) => createAgent({ model, tools, ...session.agentOptions }),
});
if (env.FLEET_USAGE) {
  const cpuAtStart = process.cpuUsage();
  const requestsAtStart = storeRequests;
  const keep = () => {
    const { user, system } = process.cpuUsage(cpuAtStart);
    writeFileSync(join(env.FLEET_USAGE, `${process.pid}.json`), JSON.stringify({ cpuMs: (user + system) / 1000, storeRequests: storeRequests - requestsAtStart }));
  };
  setInterval(keep, 250).unref();
  process.once('SIGUSR2', () => {
    keep();
    process.exit(0);
  });
}
process.stdout.write('worker ready\n');
