// The worker fleet under faults (issue 15): W worker processes (default 4) run sessions of five
// tool turns and one approval each, as BullMQ jobs, through the real @anthropic-ai/sdk against the
// loopback Messages server (the demo model of examples/worker-fleet); every few seconds one worker
// is killed with SIGKILL and a new one started. Then every transcript is read back and checked.
//
// Run: `npm run bench:fleet -- --sessions 1000` (or `node --import tsx bench/fleet.bench.mjs`).
//   --sessions N      sessions per store (default 200)
//   --workers W       worker processes (default 4)
//   --kill-every MS   SIGKILL one worker this often, then start a new one (default 5000; 0 = never)
//   --concurrency C   jobs per worker at once (default 4)
//   --lease-ms MS     the workers' lease on a session (default 10000)
//   --lock-ms MS      BullMQ's job lock: a killed worker's jobs are taken over after it (default 8000).
//                     Shorter is faster after a kill, but on a loaded machine a stalled event loop
//                     then loses locks and leases of live workers (safe, fenced, but slower).
//   --stores LIST     postgres,redis (default both)
//   --timeout S       give up after S seconds per store (default 900)
// PostgreSQL and Redis are the loopback servers or AGENT_HARNESS_PG_URL / AGENT_HARNESS_REDIS_URL.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { createAgentQueue } from 'agent-harness/bullmq';
import { startDemoModelServer, TOOL_TURNS } from '../examples/worker-fleet/demo-script.ts';
import { bullConnection, dropPrefix, openFleetStore, placeToEnv } from '../test/bullmq/fleet-stores.ts';
import { loadEntries } from '../src/session/load-entries.ts';
import { storedResults } from '../test/helpers.ts';
import { postgresCpuMs, redisCpuMs } from './lib/server-cpu.mjs';
import { quantile } from './lib/stats.mjs';
import { renderTable } from './lib/table.mjs';

const { values: args } = parseArgs({
  options: {
    sessions: { type: 'string', default: '200' },
    workers: { type: 'string', default: '4' },
    'kill-every': { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '4' },
    'lease-ms': { type: 'string', default: '10000' },
    'lock-ms': { type: 'string', default: '8000' },
    stores: { type: 'string', default: 'postgres,redis' },
    timeout: { type: 'string', default: '900' },
  },
});
const SESSIONS = Number(args.sessions);
const WORKERS = Number(args.workers);
const KILL_EVERY = Number(args['kill-every']);
const TIMEOUT_MS = Number(args.timeout) * 1000;
const PG_URL = process.env.AGENT_HARNESS_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.AGENT_HARNESS_REDIS_URL || 'redis://127.0.0.1:6379';
const INTERRUPTED = /interrupted/i;
const tag = `ah_fleet_bench_${process.pid}_${Date.now().toString(36)}`;

// Killed from outside: still take the worker processes down (the 'exit' handlers below).
process.once('SIGTERM', () => process.exit(143));
process.once('SIGINT', () => process.exit(130));

const model = await startDemoModelServer();

async function benchStore(kind) {
  const place = {
    kind,
    pgUrl: PG_URL,
    redisUrl: REDIS_URL,
    namespace: kind === 'postgres' ? tag : `${tag}:`,
    queueName: `${tag}_${kind}`,
    bullPrefix: `${tag}_bull`,
  };
  const logDir = mkdtempSync(join(tmpdir(), 'ah-fleet-bench-'));
  const logFile = join(logDir, 'executions.jsonl');
  // Each worker keeps its CPU time and its store's statements (or commands) in a file here.
  const usageDir = join(logDir, 'usage');
  mkdirSync(usageDir);
  const { store, close } = await openFleetStore(place);
  const queue = createAgentQueue({ connection: bullConnection(REDIS_URL), queueName: place.queueName, prefix: place.bullPrefix, attempts: 5 });
  const events = new QueueEvents(place.queueName, { connection: bullConnection(REDIS_URL), prefix: place.bullPrefix });
  await events.waitUntilReady();

  const env = { ...process.env, ...placeToEnv(place), FLEET_LOG: logFile, FLEET_MODEL_URL: model.url, FLEET_LEASE_MS: args['lease-ms'], FLEET_LOCK_MS: args['lock-ms'], FLEET_CONCURRENCY: args.concurrency, FLEET_USAGE: usageDir };
  const startWorker = () => spawn(process.execPath, ['bench/fleet-worker.mjs'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = (worker) => new Promise((resolve, reject) => {
    worker.stdout.once('data', resolve);
    worker.once('exit', (code) => reject(new Error(`a worker exited (${code}) before it was ready`)));
  });
  const workers = Array.from({ length: WORKERS }, startWorker);
  process.once('exit', () => workers.forEach((worker) => worker.kill('SIGKILL')));
  // Throughput counts from a ready fleet: the workers' start-up is not the store's cost.
  await Promise.all(workers.map(ready));
  let kills = 0;
  const killer =
    KILL_EVERY > 0
      ? setInterval(() => {
          const index = Math.floor(Math.random() * workers.length);
          workers[index].kill('SIGKILL');
          kills++;
          workers[index] = startWorker();
        }, KILL_EVERY)
      : undefined;

  // Run jobs park on the approval; each approval is queued the moment its run job reports it.
  const jobs = new Map(); // jobId → { sessionId, kind, enqueuedAt }
  const early = new Map(); // jobId → return value, for jobs that finished before they were tracked
  let handle;
  const track = (jobId, job) => {
    jobs.set(jobId, job);
    if (early.has(jobId)) {
      const value = early.get(jobId);
      early.delete(jobId);
      void handle(jobId, value);
    }
  };
  const latencies = [];
  let completed = 0;
  let failed = 0;
  let approvalsAnswered = 0;
  // The store servers' CPU, from a ready fleet to the last session (a PostgreSQL server elsewhere: not read).
  const cpuProbe = new Redis(REDIS_URL);
  const pgLocal = kind === 'postgres' && ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(PG_URL).hostname);
  const serversAtStart = { pg: pgLocal ? postgresCpuMs() : undefined, redis: await redisCpuMs(cpuProbe) };
  const started = performance.now();
  const allDone = new Promise((resolve) => {
    const check = () => completed + failed >= SESSIONS && resolve();
    handle = async (jobId, returnvalue) => {
      const job = jobs.get(jobId);
      if (!job) return void early.set(jobId, returnvalue); // finished before `add` returned its id
      jobs.delete(jobId);
      const result = typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue;
      if (job.kind === 'run' && result.status === 'awaiting-approval') {
        approvalsAnswered++;
        const enqueuedAt = performance.now();
        const approval = await queue.enqueueApproval({ sessionId: job.sessionId, approvalId: result.pendingApprovals[0], decision: { behavior: 'allow' } });
        track(approval.jobId, { sessionId: job.sessionId, kind: 'approval', enqueuedAt });
        return;
      }
      if (job.kind === 'approval' && result.status === 'completed') {
        latencies.push(performance.now() - job.enqueuedAt);
        completed++;
      } else failed++;
      check();
    };
    events.on('completed', ({ jobId, returnvalue }) => void handle(jobId, returnvalue));
    events.on('failed', ({ jobId }) => {
      if (!jobs.delete(jobId)) return;
      failed++;
      check();
    });
  });
  const sessionIds = Array.from({ length: SESSIONS }, (_, index) => `${tag}-${kind}-${index}`);
  for (const sessionId of sessionIds) {
    const { jobId } = await queue.enqueueRun({ sessionId, prompt: 'Do the task.' });
    track(jobId, { sessionId, kind: 'run', enqueuedAt: performance.now() });
  }
  const progress = setInterval(() => console.error(`${kind}: ${completed} completed, ${failed} failed, ${approvalsAnswered} approvals queued, ${kills} kills`), 5000);
  let timedOut = false;
  await Promise.race([allDone, new Promise((resolve) => setTimeout(() => ((timedOut = true), resolve()), TIMEOUT_MS).unref())]);
  const seconds = (performance.now() - started) / 1000;
  const pgAtEnd = serversAtStart.pg === undefined ? undefined : postgresCpuMs();
  const redisCpu = (await redisCpuMs(cpuProbe)) - serversAtStart.redis;
  await cpuProbe.quit();
  clearInterval(killer);
  clearInterval(progress);
  // Each worker writes its usage once more and exits; one that does not within 5 s is killed.
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise((resolve) => {
          if (worker.exitCode !== null || worker.signalCode !== null) return resolve();
          const kill = setTimeout(() => worker.kill('SIGKILL'), 5000);
          worker.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          worker.kill('SIGUSR2');
        }),
    ),
  );
  // Killed workers count with what they wrote last (at most 250 ms before the kill).
  const usage = readdirSync(usageDir).map((name) => JSON.parse(readFileSync(join(usageDir, name), 'utf8')));
  const workerCpuMs = usage.reduce((sum, { cpuMs }) => sum + cpuMs, 0);
  const storeRequests = usage.reduce((sum, { storeRequests: sent }) => sum + sent, 0);

  // Read everything back: executions against stored results, and the transcripts' numbering.
  const executions = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
  rmSync(logDir, { recursive: true, force: true });
  const executedIds = new Map();
  for (const execution of executions) executedIds.set(execution.toolUseId, (executedIds.get(execution.toolUseId) ?? 0) + 1);
  const duplicates = [...executedIds.values()].filter((count) => count > 1).length;
  let acknowledged = 0;
  let interrupted = 0;
  let lostEntries = 0;
  let unstoredCalls = 0;
  let finished = 0;
  const storedCalls = new Set();
  for (const sessionId of sessionIds) {
    const entries = await loadEntries(store, sessionId);
    entries.forEach((entry, index) => {
      if (entry.seq !== index + 1) lostEntries++;
      if (entry.kind === 'message' && entry.message.role === 'assistant') {
        for (const block of entry.message.content) if (block.type === 'tool_use') storedCalls.add(block.id);
      }
    });
    // A result is stored as a `tool-result` entry, or only in the user message that carries the
    // results when it completed its batch (docs/stores.md): each counted once.
    for (const [toolUseId, result] of storedResults(entries)) {
      const content = typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
      if (INTERRUPTED.test(content)) interrupted++;
      else {
        acknowledged++;
        if (!executedIds.has(toolUseId)) lostEntries++; // a result with no execution behind it
      }
    }
    const last = entries.filter((entry) => entry.kind === 'message').at(-1);
    if (last?.message.role === 'assistant' && JSON.stringify(last.message.content).includes(`All ${TOOL_TURNS} steps are done.`)) finished++;
  }
  for (const id of executedIds.keys()) if (!storedCalls.has(id)) unstoredCalls++;

  await events.close();
  await queue.close();
  const admin = new Redis(REDIS_URL);
  await dropPrefix(admin, place.bullPrefix);
  await admin.quit();
  await close(true);
  return {
    kind,
    seconds,
    timedOut,
    kills,
    completed,
    failed,
    finished,
    approvalsAnswered,
    executions: executions.length,
    acknowledged,
    interrupted,
    duplicates,
    lostEntries,
    unstoredCalls,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    workerCpuMs,
    storeRequests,
    pgCpuMs: pgAtEnd === undefined ? undefined : pgAtEnd - serversAtStart.pg,
    redisCpuMs: redisCpu,
  };
}

const results = [];
for (const kind of args.stores.split(',')) {
  try {
    results.push(await benchStore(kind));
  } catch (error) {
    console.log(`${kind}: left out (${error instanceof Error ? error.message : String(error)})`);
  }
}
await model.close();

const ms = (value) => (Number.isFinite(value) ? `${value.toFixed(0)} ms` : 'n/a');
/** A CPU time spread over the sessions completed. */
const perSession = (result, cpuMs) => (Number.isFinite(cpuMs) && result.completed > 0 ? `${(cpuMs / result.completed).toFixed(1)} ms` : 'n/a');
console.log(
  `\nWorker fleet: ${SESSIONS} sessions × (${TOOL_TURNS} tool turns + 1 approval), ${WORKERS} workers × ${args.concurrency} jobs, one SIGKILLed every ${KILL_EVERY} ms (lease ${args['lease-ms']} ms, lock ${args['lock-ms']} ms)\n`,
);
console.log(
  renderTable(
    ['', ...results.map((result) => result.kind)],
    [
      ['sessions completed (transcript ends with the final answer)', ...results.map((result) => `${result.finished} / ${SESSIONS}${result.timedOut ? ' (timed out)' : ''}`)],
      ['jobs failed', ...results.map((result) => String(result.failed))],
      ['workers killed', ...results.map((result) => String(result.kills))],
      ['tool executions', ...results.map((result) => String(result.executions))],
      ['acknowledged results', ...results.map((result) => String(result.acknowledged))],
      ['calls answered as interrupted (cut off by a kill)', ...results.map((result) => String(result.interrupted))],
      ['duplicate executions', ...results.map((result) => String(result.duplicates))],
      ['lost entries (gaps, results without an execution)', ...results.map((result) => String(result.lostEntries))],
      ['executions whose call is not stored', ...results.map((result) => String(result.unstoredCalls))],
      ['throughput', ...results.map((result) => `${(result.completed / result.seconds).toFixed(1)} sessions/s (${result.seconds.toFixed(1)} s)`)],
      ['approval → continued run done, p50', ...results.map((result) => ms(result.p50))],
      ['approval → continued run done, p99', ...results.map((result) => ms(result.p99))],
      ['worker CPU per session (all workers, kills included)', ...results.map((result) => perSession(result, result.workerCpuMs))],
      ['session store statements (PostgreSQL) or commands (Redis) per session', ...results.map((result) => (result.completed ? (result.storeRequests / result.completed).toFixed(1) : 'n/a'))],
      ['PostgreSQL server CPU per session (all its processes)', ...results.map((result) => (result.kind === 'postgres' ? perSession(result, result.pgCpuMs) : '—'))],
      ['Redis server CPU per session (BullMQ\'s included)', ...results.map((result) => perSession(result, result.redisCpuMs))],
    ],
  ),
);
process.exit(results.some((result) => result.duplicates > 0 || result.lostEntries > 0 || result.unstoredCalls > 0) ? 1 : 0);
