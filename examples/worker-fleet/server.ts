/**
 * The worker fleet: an HTTP API in front of N worker processes. Runs are BullMQ jobs on Redis;
 * sessions live in PostgreSQL, so any worker continues any session and an approval answered here
 * continues a run another process parked. Offline, the workers talk to the demo model's loopback
 * server; with ANTHROPIC_API_KEY, to the real API.
 *
 *   node --import tsx examples/worker-fleet/server.ts
 *
 *   POST /runs                          { prompt, sessionId? } → 202 { sessionId, jobId }
 *   GET  /jobs/:jobId?waitMs=5000       the job's state and result (waits up to waitMs for it to finish)
 *   GET  /approvals                     sessions waiting for approval, with their approvals
 *   POST /approvals/:sessionId/:id      { behavior: 'allow' } or { behavior: 'deny', message } → 202 { jobId }
 *
 * Environment: PORT (default 3000, 0 = any free port), WORKERS (default 3), DATABASE_URL,
 * REDIS_URL, FLEET_SCHEMA, FLEET_QUEUE, FLEET_TOOL_LOG, ANTHROPIC_API_KEY.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Job, QueueEvents } from 'bullmq';
import { ConfigurationError } from 'agent-harness';
import { createAgentQueue } from 'agent-harness/bullmq';
import { postgresSessionStore, migratePostgres } from 'agent-harness/postgres';
import { startDemoModelServer } from './demo-script.js';
import { redisConnection } from './redis-connection.js';

const env = process.env;
const schema = env.FLEET_SCHEMA ?? 'agent_harness_fleet';
const queueName = env.FLEET_QUEUE ?? 'agent-harness-fleet';
const databaseUrl = env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
await migratePostgres({ pool, schema });
const store = postgresSessionStore({ pool, schema });
const queue = createAgentQueue({ connection: redisConnection(env.REDIS_URL), queueName });
const events = new QueueEvents(queueName, { connection: redisConnection(env.REDIS_URL) });
const demo = env.ANTHROPIC_API_KEY ? undefined : await startDemoModelServer();

const workers: ChildProcess[] = [];
for (let index = 0; index < Number(env.WORKERS ?? 3); index++) {
  const worker = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./worker.ts', import.meta.url))], {
    env: { ...env, FLEET_SCHEMA: schema, FLEET_QUEUE: queueName, DATABASE_URL: databaseUrl, ...(demo ? { DEMO_MODEL_URL: demo.url } : {}) },
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  workers.push(worker);
}

/** A request the client must change: answered with its status and message, never a 500. */
class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const MAX_BODY_BYTES = 1_000_000;

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `The body is over ${MAX_BODY_BYTES / 1_000_000} MB; send a shorter prompt.`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : {};
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError(400, 'The body must be a JSON object, e.g. { "prompt": "..." }.');
  return value as Record<string, unknown>;
}

function pathParts(pathname: string): string[] {
  try {
    return pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    throw new HttpError(400, `The path ${pathname} is not valid percent-encoding.`);
  }
}

function send(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const parts = pathParts(url.pathname);
  if (request.method === 'POST' && url.pathname === '/runs') {
    const body = await readJson(request);
    if (typeof body.prompt !== 'string' || body.prompt.trim() === '') return send(response, 400, { error: 'Send { "prompt": "..." } (and optionally a "sessionId").' });
    const sessionId = typeof body.sessionId === 'string' && body.sessionId ? body.sessionId : `session-${randomUUID()}`;
    // A client that retries sends the same Idempotency-Key header: the prompt still runs once.
    const key = request.headers['idempotency-key'];
    return send(response, 202, await queue.enqueueRun({ sessionId, prompt: body.prompt, ...(typeof key === 'string' && key.trim() !== '' ? { idempotencyKey: key } : {}) }));
  }
  if (request.method === 'GET' && parts[0] === 'jobs' && parts.length >= 2) {
    // A keyed job's id holds a '/' (`approval-key-<session>/<key>`): taken raw or percent-encoded.
    const jobId = parts.slice(1).join('/');
    const job = await Job.fromId(queue.queue, jobId);
    if (!job) return send(response, 404, { error: `No job ${jobId}.` });
    const waitMs = Math.min(Number(url.searchParams.get('waitMs') ?? 0) || 0, 30_000);
    // Long polling: the answer comes when the job finishes (or waitMs passes), not on a client's timer.
    if (waitMs > 0) await job.waitUntilFinished(events, waitMs).catch(() => undefined);
    const current = await Job.fromId(queue.queue, jobId);
    return send(response, 200, { jobId: job.id, state: await current!.getState(), result: current!.returnvalue ?? null, failedReason: current!.failedReason ?? null });
  }
  if (request.method === 'GET' && url.pathname === '/approvals') return send(response, 200, await store.listPending!());
  if (request.method === 'POST' && parts[0] === 'approvals' && parts.length === 3) {
    const body = await readJson(request);
    if (body.behavior !== 'allow' && !(body.behavior === 'deny' && typeof body.message === 'string')) {
      return send(response, 400, { error: 'Send { "behavior": "allow" } or { "behavior": "deny", "message": "why, for the model" }.' });
    }
    const decision = body.behavior === 'allow' ? { behavior: 'allow' as const } : { behavior: 'deny' as const, message: body.message as string };
    // Only answers to approvals that are waiting are queued: a job for another one would fail on a worker.
    const [sessionId, approvalId] = [parts[1]!, parts[2]!];
    const waiting = (await store.listPending!()).find((pending) => pending.sessionId === sessionId);
    if (!waiting?.approvals.some((approval) => approval.id === approvalId)) {
      return send(response, 404, { error: `No approval ${JSON.stringify(approvalId)} of session ${JSON.stringify(sessionId)} is waiting; GET /approvals lists those that are.` });
    }
    // The approval's id is the answer's idempotency key: a retry of the same answer gets the same job
    // (`duplicate: true`), and a different answer to one approval is refused (422), never queued behind it.
    return send(response, 202, await queue.enqueueApproval({ sessionId, approvalId, decision, idempotencyKey: approvalId }));
  }
  send(response, 404, { error: `Not found: ${request.method} ${url.pathname}` });
}

const server = createServer((request, response) => {
  route(request, response).catch((error: unknown) => {
    // The queue's ConfigurationError names what it refused (a session id it cannot take, an
    // Idempotency-Key already used for another request): the client's to fix, so 422, not 500.
    const status = error instanceof HttpError ? error.status : ConfigurationError.isInstance(error) ? 422 : 500;
    if (status === 413) response.setHeader('connection', 'close');
    send(response, status, { error: error instanceof Error ? error.message : String(error) });
  });
});
server.listen(Number(env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`Worker fleet API on http://127.0.0.1:${(server.address() as AddressInfo).port} with ${workers.length} workers`);
});

async function shutdown(): Promise<void> {
  server.close();
  await Promise.all(
    workers.map((worker) => new Promise<void>((done) => {
      if (worker.exitCode !== null || worker.signalCode !== null) return done();
      worker.once('exit', () => done());
      worker.kill('SIGTERM');
    })),
  );
  await Promise.allSettled([events.close(), queue.close(), demo?.close(), pool.end()]);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
