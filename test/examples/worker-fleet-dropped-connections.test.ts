// A worker process of the fleet example whose PostgreSQL connections are cut while it is idle (a
// database restart, a failover, an admin's pg_terminate_backend, a proxy's idle timeout): it must
// keep running jobs, not die of the pool's 'error' event. Outside CI, without the servers, it
// skips with one line.
import { spawn, type ChildProcess } from 'node:child_process';
import { QueueEvents, Job } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentQueue, type AgentJobResult, type AgentQueue } from 'agent-harness/bullmq';
import type { MessagesServer } from 'agent-harness/testing/messages-server';
import { startDemoModelServer } from '../../examples/worker-fleet/demo-script.js';
import { bullConnection, dropPrefix } from '../bullmq/fleet-stores.js';
import { postgres } from '../postgres/postgres-test-database.js';
import { redis } from '../redis/redis-test-server.js';
import { uniqueName } from '../server-under-test.js';
import { REPO_ROOT } from './server-process.js';

const reachable = postgres.reachable && redis.reachable;

describe.skipIf(!reachable)('examples/worker-fleet: a worker whose database connections are cut', () => {
  const schema = uniqueName('ah_fleet_cut');
  const queueName = uniqueName('fleet-cut');
  // Tags the worker's connections, so the test cuts only those.
  const applicationName = uniqueName('ah-worker');
  let model: MessagesServer;
  let queue: AgentQueue;
  let events: QueueEvents;
  let admin: pg.Pool;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    model = await startDemoModelServer();
    queue = createAgentQueue({ connection: bullConnection(redis.url), queueName });
    events = new QueueEvents(queueName, { connection: bullConnection(redis.url) });
    await events.waitUntilReady();
    admin = new pg.Pool({ connectionString: postgres.url, max: 1 });
  });

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await events?.close();
    await queue?.close();
    await model?.close();
    if (admin) {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
    const client = new Redis(redis.url);
    await dropPrefix(client, `bull:${queueName}:`);
    await client.quit();
  });

  it('keeps running jobs after PostgreSQL ends its idle connections', { timeout: 60_000 }, async () => {
    const databaseUrl = new URL(postgres.url);
    databaseUrl.searchParams.set('application_name', applicationName);
    child = spawn(process.execPath, ['--import', 'tsx', 'examples/worker-fleet/worker.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl.href, REDIS_URL: redis.url, FLEET_SCHEMA: schema, FLEET_QUEUE: queueName, DEMO_MODEL_URL: model.url, ANTHROPIC_API_KEY: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const died = new Promise<never>((_, reject) => child!.once('exit', (code, signal) => reject(new Error(`the worker exited (code ${code}, signal ${signal}):\n${output}`))));
    const finished = async (jobId: string) => (await Promise.race([(await Job.fromId(queue.queue, jobId))!.waitUntilFinished(events, 30_000), died])) as AgentJobResult;

    const sessionId = uniqueName('cut');
    const parked = await finished((await queue.enqueueRun({ sessionId, prompt: 'Do the task.' })).jobId);
    expect(parked.status).toBe('awaiting-approval');

    // The worker's pool now holds idle connections: PostgreSQL ends them all.
    const { rows } = await admin.query('SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
    expect(rows.length).toBeGreaterThan(0);

    const done = await finished((await queue.enqueueApproval({ sessionId, approvalId: parked.pendingApprovals[0]!, decision: { behavior: 'allow' } })).jobId);
    expect(done).toMatchObject({ status: 'completed', pendingApprovals: [] });
    expect(child.exitCode).toBeNull();
  });
});
