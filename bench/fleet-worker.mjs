// One worker process of bench/fleet.bench.mjs, on the built package (starts in about a second).
// Environment: see placeToEnv in test/bullmq/fleet-stores.ts, plus FLEET_LOG, FLEET_MODEL_URL,
// FLEET_LEASE_MS, FLEET_LOCK_MS.
import { appendFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import pg from 'pg';
import { z } from 'zod';
import { anthropicModel, createAgent, defineTool } from '../dist/index.js';
import { createAgentWorker } from '../dist/bullmq/index.js';
import { postgresSessionStore } from '../dist/postgres/index.js';
import { redisSessionStore } from '../dist/redis/index.js';

const env = process.env;
const store =
  env.FLEET_STORE === 'postgres'
    ? postgresSessionStore({ pool: new pg.Pool({ connectionString: env.FLEET_PG_URL, max: 4 }), schema: env.FLEET_NAMESPACE })
    : redisSessionStore({ client: new Redis(env.FLEET_REDIS_URL, { maxRetriesPerRequest: 1 }), keyPrefix: env.FLEET_NAMESPACE });

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
process.stdout.write('worker ready\n');
