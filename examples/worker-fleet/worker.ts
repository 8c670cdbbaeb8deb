/**
 * One worker process of the fleet: takes agent jobs from BullMQ and runs them with the sessions in
 * PostgreSQL. Start as many as you like, on as many machines; `server.ts` starts N of them.
 *
 * Environment: DATABASE_URL, REDIS_URL, FLEET_SCHEMA, FLEET_QUEUE, FLEET_TOOL_LOG,
 * FLEET_SHUTDOWN_GRACE_MS (how long a SIGTERM lets jobs under way finish; default 20000), and either
 * ANTHROPIC_API_KEY (a real model) or DEMO_MODEL_URL (the offline demo model's server).
 */
import pg from 'pg';
import { anthropicModel, createAgent } from 'agent-harness';
import { createAgentWorker } from 'agent-harness/bullmq';
import { postgresSessionStore } from 'agent-harness/postgres';
import { fleetTools } from './fleet-tools.js';
import { redisConnection } from './redis-connection.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', max: 4 });
const store = postgresSessionStore({ pool, schema: process.env.FLEET_SCHEMA ?? 'agent_harness_fleet' });
const model = process.env.ANTHROPIC_API_KEY
  ? anthropicModel({ model: process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-6' })
  : anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'offline-demo', baseURL: process.env.DEMO_MODEL_URL!, maxRetries: 0 });
const tools = fleetTools({ logFile: process.env.FLEET_TOOL_LOG ?? '/dev/null' });

const worker = createAgentWorker({
  connection: redisConnection(process.env.REDIS_URL),
  queueName: process.env.FLEET_QUEUE ?? 'agent-harness-fleet',
  store,
  leaseTtlMs: Number(process.env.FLEET_LEASE_MS ?? 10_000),
  lockDurationMs: Number(process.env.FLEET_LOCK_MS ?? 10_000),
  createAgent: (session) => createAgent({ model, tools, system: 'You carry out tasks step by step.', ...session.agentOptions }),
  onError: ({ jobId, sessionId, error }) => console.error(`job ${jobId} (session ${sessionId}) failed: ${error.message}`),
});

// Shutting down the way a deploy needs it: let the jobs under way finish for a while, then stop
// them and hand them back to the queue (another worker resumes each where it stopped, nothing runs
// twice), well inside the platform's grace period (Kubernetes waits 30 s after SIGTERM, then kills).
// A second signal stops the jobs at once.
const graceMs = Number(process.env.FLEET_SHUTDOWN_GRACE_MS ?? 20_000);
const shutdownNow = new AbortController();
let closing: Promise<void> | undefined;
function shutdown(): void {
  if (closing) return shutdownNow.abort();
  closing = worker
    .close({ timeoutMs: graceMs, signal: shutdownNow.signal })
    .catch((error: unknown) => console.error(`worker ${worker.id} did not close cleanly: ${error instanceof Error ? error.message : String(error)}`))
    .finally(() => process.exit(0));
}
// The server holds our stdin: when it goes away (even killed), so do we, at once: nobody is left
// to wait for, and the jobs under way are resumed by the rest of the fleet.
process.stdin.on('end', () => {
  shutdown();
  shutdownNow.abort();
});
process.stdin.resume();
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
console.log(`worker ${worker.id} ready (pid ${process.pid})`);
