// Agent runs as BullMQ jobs, against the real Redis (the queue) and PostgreSQL or Redis (the
// session store). Outside CI, a missing server skips these tests with one line; in CI it fails.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { QueueEvents, Job } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { anthropicModel, ConfigurationError, createAgent, memorySessionStore, type SessionEntry, type SessionStore } from 'agent-harness';
import { createAgentQueue, createAgentWorker, type AgentJobResult, type AgentQueue, type AgentWorker, type AgentWorkerError } from 'agent-harness/bullmq';
import { startMessagesServer, type MessagesServer, type MessagesServerResponse } from 'agent-harness/testing/messages-server';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { createNotesServer, type NotesServerState } from '../mcp/fixtures/notes-server.js';
import { Redis } from 'ioredis';
import { demoTurn, startDemoModelServer } from '../../examples/worker-fleet/demo-script.js';
import { fleetTools } from '../../examples/worker-fleet/fleet-tools.js';
import { REPO_ROOT } from '../examples/server-process.js';
import { loadEntries } from '../../src/session/load-entries.js';
import { postgres } from '../postgres/postgres-test-database.js';
import { redis } from '../redis/redis-test-server.js';
import { uniqueName } from '../server-under-test.js';
import { bullConnection, dropPrefix, openFleetStore, placeToEnv, type FleetPlace, type StoreKind } from './fleet-stores.js';
import { tempDirs } from '../temp-dirs.js';
import { storedResults as storedBlocks } from '../helpers.js';

const tempDir = tempDirs();

const INTERRUPTED = /interrupted/i;

interface Execution {
  toolUseId: string;
  name: string;
  n: number;
  pid: number;
}

const executions = (file: string): Execution[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Execution) : []);

/** The tool results stored in a transcript (their entries, or the message carrying them), by call id: acknowledged, or answered as interrupted. */
function storedResults(entries: readonly SessionEntry[]): Map<string, string> {
  const results = new Map<string, string>();
  for (const [toolUseId, { content }] of storedBlocks(entries)) results.set(toolUseId, typeof content === 'string' ? content : JSON.stringify(content));
  return results;
}

let model: MessagesServer;
beforeAll(async () => {
  model = await startDemoModelServer();
});
afterAll(() => model?.close());

describe('createAgentWorker / createAgentQueue: options', () => {
  it('names the bad option and the fix', () => {
    const connection = { host: '127.0.0.1', port: 1 };
    const make = () => createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'x' }) });
    expect(() => createAgentWorker({ connection, store: { ...memorySessionStore(), leases: undefined } as SessionStore, createAgent: make })).toThrow(/`store` must be a session store with `leases`/);
    expect(() => createAgentWorker({ connection, store: memorySessionStore(), createAgent: make, leaseTtlMs: 0 })).toThrow(/`leaseTtlMs`/);
    expect(() => createAgentWorker({ connection, store: memorySessionStore(), createAgent: make, concurency: 2 } as never)).toThrow(/`concurency`.*`concurrency`/);
    expect(() => createAgentWorker({ connection, store: memorySessionStore() } as never)).toThrow(/`createAgent`/);
    expect(() => createAgentQueue({ connection: 'redis://x' as never })).toThrow(ConfigurationError);
  });
});

const kinds: Array<{ kind: StoreKind; reachable: boolean }> = [
  { kind: 'postgres', reachable: postgres.reachable && redis.reachable },
  { kind: 'redis', reachable: redis.reachable },
];

describe.each(kinds)('agent jobs on BullMQ with the $kind store', ({ kind, reachable }) => {
  let place: FleetPlace;
  let store: SessionStore;
  let closeStore: (drop?: boolean) => Promise<void>;
  let queue: AgentQueue;
  let events: QueueEvents;
  let admin: Redis;
  let logFile: string;
  const workers: AgentWorker[] = [];
  const children: ChildProcess[] = [];

  const startWorker = (extra: Partial<Parameters<typeof createAgentWorker>[0]> = {}) => {
    const worker = createAgentWorker({
      connection: bullConnection(place.redisUrl),
      queueName: place.queueName,
      prefix: place.bullPrefix,
      store,
      heldRetryMs: 100,
      lockDurationMs: 1000,
      leaseTtlMs: 2000,
      createAgent: (session) =>
        createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'offline', baseURL: model.url, maxRetries: 0 }), tools: fleetTools({ logFile }), ...session.agentOptions }),
      ...extra,
    });
    workers.push(worker);
    return worker;
  };

  const finished = async (jobId: string): Promise<AgentJobResult> => {
    const job = await Job.fromId(queue.queue, jobId);
    return (await job!.waitUntilFinished(events, 90_000)) as AgentJobResult;
  };

  const entriesOf = (sessionId: string) => loadEntries(store, sessionId);

  beforeAll(async () => {
    if (!reachable) return;
    place = {
      kind,
      pgUrl: postgres.url,
      redisUrl: redis.url,
      namespace: kind === 'postgres' ? uniqueName('ah_fleet') : `${uniqueName('ah-fleet')}:`,
      queueName: uniqueName('fleet'),
      bullPrefix: uniqueName('ah-bull'),
    };
    ({ store, close: closeStore } = await openFleetStore(place));
    queue = createAgentQueue({ connection: bullConnection(place.redisUrl), queueName: place.queueName, prefix: place.bullPrefix });
    events = new QueueEvents(place.queueName, { connection: bullConnection(place.redisUrl), prefix: place.bullPrefix });
    await events.waitUntilReady();
    admin = new Redis(place.redisUrl);
  });

  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(workers.splice(0).map((worker) => worker.close()));
  });

  afterAll(async () => {
    if (!reachable) return;
    await events.close();
    await queue.close();
    await dropPrefix(admin, place.bullPrefix);
    await admin.quit();
    await closeStore(true);
  });

  it.skipIf(!reachable)("an approval job for an MCP tool whose server is down is tried again as an attempt, and runs the tool once the server is back", { timeout: 120_000 }, async () => {
    const notes: NotesServerState = { notes: [], calls: [], cancelled: false };
    let agentsMade = 0;
    let connections = 0;
    startWorker({
      createAgent: (session) => {
        agentsMade++;
        const script = agentsMade === 1 ? [turn(toolCall('mcp__notes__append_note', { text: 'once' }, 'toolu_note'))] : ['Noted.'];
        // The server is down for the approval job's first attempt (the second agent made), then back.
        const server = () => (++connections === 2 ? Promise.reject(new Error('the notes service is down')) : createNotesServer(notes));
        return createAgent({ model: scriptedModel(script), mcpServers: { notes: { type: 'sdk', server } }, ...session.agentOptions });
      },
    });
    const sessionId = uniqueName('mcp-down');
    const parked = await finished((await queue.enqueueRun({ sessionId, prompt: 'Note it.' })).jobId);
    expect(parked.status).toBe('awaiting-approval');
    const { jobId } = await queue.enqueueApproval({ sessionId, approvalId: parked.pendingApprovals[0]!, decision: { behavior: 'allow' } });
    const done = await finished(jobId);
    expect(done.status).toBe('completed');
    expect((await Job.fromId(queue.queue, jobId))!.attemptsMade).toBe(2);
    expect(notes.notes).toEqual(['once']);
  });

  it.skipIf(!reachable)('runs a prompt, parks on the approval, and finishes once the approval job is run', { timeout: 120_000 }, async () => {
    logFile = join(tempDir('ah-fleet-'), 'executions.jsonl');
    startWorker();
    const sessionId = uniqueName('s');
    const parked = await finished((await queue.enqueueRun({ sessionId, prompt: 'Do the task.' })).jobId);
    expect(parked.status).toBe('awaiting-approval');
    expect(parked.pendingApprovals).toHaveLength(1);
    const inbox = (await store.listPending!()).find((pending) => pending.sessionId === sessionId);
    expect(inbox?.approvals.map((approval) => approval.id)).toEqual(parked.pendingApprovals);
    expect(inbox?.approvals[0]?.toolName).toBe('publish');

    const approved = await finished((await queue.enqueueApproval({ sessionId, approvalId: parked.pendingApprovals[0]!, decision: { behavior: 'allow' } })).jobId);
    expect(approved).toMatchObject({ status: 'completed', pendingApprovals: [] });
    const ran = executions(logFile);
    expect(ran.map((execution) => `${execution.name} ${execution.n}`)).toEqual(['step 0', 'step 1', 'publish 2', 'step 3', 'step 4']);
    expect((await store.listPending!()).some((pending) => pending.sessionId === sessionId)).toBe(false);

    // Answering the same approval again runs nothing.
    const again = await finished((await queue.enqueueApproval({ sessionId, approvalId: parked.pendingApprovals[0]!, decision: { behavior: 'allow' } })).jobId);
    expect(again.status).toBe('approval-not-pending');
    expect(executions(logFile)).toHaveLength(5);
  });

  it.skipIf(!reachable)('each job reads its session from the store once: the agent resumes from what the worker read', { timeout: 120_000 }, async () => {
    logFile = join(tempDir('ah-fleet-'), 'executions.jsonl');
    const loads: string[] = [];
    const counting: SessionStore = {
      append: (...args) => store.append(...args),
      load: (sessionId, options) => (loads.push(sessionId), store.load(sessionId, options)),
      list: () => store.list(),
      delete: (sessionId) => store.delete(sessionId),
      leases: store.leases!,
      ...(store.listPending ? { listPending: () => store.listPending!() } : {}),
    };
    startWorker({ store: counting });
    const sessionId = uniqueName('one-read');
    const parked = await finished((await queue.enqueueRun({ sessionId, prompt: 'Do the task.' })).jobId);
    expect(parked.status).toBe('awaiting-approval');
    expect(loads.filter((loaded) => loaded === sessionId)).toHaveLength(1);
    const approved = await finished((await queue.enqueueApproval({ sessionId, approvalId: parked.pendingApprovals[0]!, decision: { behavior: 'allow' } })).jobId);
    expect(approved.status).toBe('completed');
    // The approval job's worker read the session, and its agent resumed from that read.
    expect(loads.filter((loaded) => loaded === sessionId)).toHaveLength(2);
    expect(executions(logFile).map((execution) => `${execution.name} ${execution.n}`)).toEqual(['step 0', 'step 1', 'publish 2', 'step 3', 'step 4']);
  });

  it.skipIf(!reachable)('a request sent twice with one idempotency key runs once, also when it comes again after the queue dropped its job', { timeout: 120_000 }, async () => {
    logFile = join(tempDir('ah-fleet-'), 'executions.jsonl');
    startWorker();
    const sessionId = uniqueName('keyed');
    const request = { sessionId, prompt: 'Do the task.', idempotencyKey: 'request-1' };
    const first = await queue.enqueueRun(request);
    expect((await queue.enqueueRun(request)).duplicate).toBe(true);
    expect((await finished(first.jobId)).status).toBe('awaiting-approval');
    const ran = executions(logFile).length;
    expect(ran).toBeGreaterThan(0);
    // Dropped by the queue (as after 10,000 newer jobs), then the same request again.
    await (await Job.fromId(queue.queue, first.jobId))!.remove();
    const again = await queue.enqueueRun(request);
    expect(again).toEqual({ jobId: first.jobId, sessionId });
    expect((await finished(again.jobId)).status).toBe('awaiting-approval');
    expect(executions(logFile)).toHaveLength(ran);
    const entries = await entriesOf(sessionId);
    expect(entries.filter((entry) => entry.kind === 'run-start')).toHaveLength(1);
    expect(JSON.stringify(entries).split('Do the task.').length - 1).toBe(1);
  });

  it.skipIf(!reachable)('puts a job for a session another worker holds back on the queue (delayed), never runs it beside it', async () => {
    logFile = join(tempDir('ah-fleet-'), 'executions.jsonl');
    const sessionId = uniqueName('held');
    const held = (await store.leases!.acquire(sessionId, { holder: 'another-worker', ttlMs: 60_000 }))!;
    const delayed = new Promise<string>((resolve) => events.on('delayed', ({ jobId }) => resolve(jobId)));
    startWorker();
    const { jobId } = await queue.enqueueRun({ sessionId, prompt: 'Do the task.' });
    expect(await delayed).toBe(jobId);
    // Taken, found held, put back: nothing was written or run.
    expect(await entriesOf(sessionId)).toEqual([]);
    expect(executions(logFile)).toEqual([]);
    const job = await Job.fromId(queue.queue, jobId);
    expect(job!.attemptsMade).toBe(0);
    await store.leases!.release(held);
    expect((await finished(jobId)).status).toBe('awaiting-approval');
  });

  it.skipIf(!reachable)('a worker running several jobs at once puts back a second job of a session it is running, never runs it beside the first', { timeout: 120_000 }, async () => {
    logFile = join(tempDir('ah-fleet-'), 'executions.jsonl');
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let hang!: (toolUseId: string) => void;
    const hanging = new Promise<string>((resolve) => (hang = resolve));
    let hung: string | undefined;
    const tools = fleetTools({
      logFile,
      onStart: ({ toolUseId, name, n }) => {
        if (name !== 'step' || n !== 1 || hung !== undefined) return;
        hung = toolUseId;
        hang(toolUseId);
        return released;
      },
    });
    startWorker({
      concurrency: 2,
      createAgent: (session) => createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'offline', baseURL: model.url, maxRetries: 0 }), tools, ...session.agentOptions }),
    });
    const sessionId = uniqueName('twice');
    const delayedIds = new Set<string>();
    let onDelayed: (() => void) | undefined;
    events.on('delayed', ({ jobId }) => {
      delayedIds.add(jobId);
      onDelayed?.();
    });
    const first = await queue.enqueueRun({ sessionId, prompt: 'Do the task.' });
    const hungCall = await hanging;
    const second = await queue.enqueueRun({ sessionId, prompt: 'Do it again.' });
    // While the first job is in its tool call, the second is put back, not run beside it.
    const putBack = new Promise<'put back'>((resolve) => {
      onDelayed = () => delayedIds.has(second.jobId) && resolve('put back');
      onDelayed();
    });
    const secondDone = finished(second.jobId).then(() => 'ran beside the first' as const);
    expect(await Promise.race([putBack, secondDone])).toBe('put back');
    release();
    await finished(first.jobId);
    await finished(second.jobId);
    // The call that ran has its real result: nothing that ran is recorded as interrupted (the model would ask for it again).
    const results = storedResults(await entriesOf(sessionId));
    expect(results.get(hungCall)).toBe('step 1 done');
    const ran = executions(logFile);
    expect(new Set(ran.map((execution) => execution.toolUseId)).size).toBe(ran.length);
    expect(ran.every((execution) => results.get(execution.toolUseId) === `${execution.name} ${execution.n} done`)).toBe(true);
  });

  it.skipIf(!reachable)('a job whose worker died between its run-start and its prompt still sends its prompt when another job of the session ran first', { timeout: 120_000 }, async () => {
    logFile = join(tempDir('ah-fleet-'), 'executions.jsonl');
    const sessionId = uniqueName('overtaken');
    const jobId = uniqueName('overtaken-job');
    // What a worker killed right after storing its run's start leaves (the prompt is a later append).
    const runStart = { $schemaVersion: 2, id: 'killed-run-start', parentId: null, seq: 1, timestamp: new Date().toISOString(), sessionId, kind: 'run-start', runId: `job_${jobId}` };
    await store.append(sessionId, [runStart as unknown as SessionEntry], { expectedRevision: 0 });
    startWorker();
    // Another job of the session runs before BullMQ hands the dead worker's job on.
    const other = await finished((await queue.enqueueRun({ sessionId, prompt: 'Do the task.' })).jobId);
    await finished((await queue.enqueueApproval({ sessionId, approvalId: other.pendingApprovals[0]!, decision: { behavior: 'allow' } })).jobId);
    // The dead worker's job, taken over.
    await queue.queue.add('run', { kind: 'run', sessionId, prompt: 'Then tidy up.' }, { jobId });
    const result = await finished(jobId);
    const prompts = (await entriesOf(sessionId)).filter((entry) => entry.kind === 'message' && entry.message.role === 'user' && JSON.stringify(entry.message.content).includes('Then tidy up.'));
    expect(prompts).toHaveLength(1);
    expect(result.status).toBe('awaiting-approval');
  });

  it.skipIf(!reachable)('a run ended by a model outage is tried again as an attempt, and the retry continues it without running a tool twice', { timeout: 120_000 }, async () => {
    logFile = join(tempDir('ah-fleet-'), 'executions.jsonl');
    // The model is overloaded on the second call of the run (after step 0 ran), then answers again.
    const flaky = await startMessagesServer({ responses: [] });
    const respond: MessagesServerResponse = ({ body, number }) => {
      flaky.enqueue(respond);
      return number === 2 ? { fault: 'overloaded' } : demoTurn(body);
    };
    flaky.enqueue(respond);
    try {
      startWorker({
        createAgent: (session) =>
          createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'offline', baseURL: flaky.url, maxRetries: 0 }), tools: fleetTools({ logFile }), ...session.agentOptions }),
      });
      const sessionId = uniqueName('outage');
      const { jobId } = await queue.enqueueRun({ sessionId, prompt: 'Do the task.' });
      const result = await finished(jobId);
      expect(result.status).toBe('awaiting-approval');
      // One attempt failed on the outage, the next finished (BullMQ counts both).
      expect((await Job.fromId(queue.queue, jobId))!.attemptsMade).toBe(2);
      expect(executions(logFile).map((execution) => `${execution.name} ${execution.n}`)).toEqual(['step 0', 'step 1']);
      const prompts = (await entriesOf(sessionId)).filter((entry) => entry.kind === 'message' && entry.message.role === 'user' && JSON.stringify(entry.message.content).includes('Do the task.'));
      expect(prompts).toHaveLength(1);
    } finally {
      await flaky.close();
    }
  });

  it.skipIf(!reachable)('a run ended by a rate limit with retry-after waits at least that long before its next attempt, then continues without running a tool twice', { timeout: 120_000 }, async () => {
    logFile = join(tempDir('ah-fleet-'), 'executions.jsonl');
    // HTTP 429 with `retry-after: 30` on the second call of the run (after step 0 ran), then answers again.
    const limited = await startMessagesServer({ responses: [] });
    const respond: MessagesServerResponse = ({ body, number }) => {
      limited.enqueue(respond);
      return number === 2 ? { fault: 'rate-limit', retryAfterSeconds: 30 } : demoTurn(body);
    };
    limited.enqueue(respond);
    let failedAttempt: (failure: AgentWorkerError) => void = () => undefined;
    const failed = new Promise<AgentWorkerError>((resolve) => (failedAttempt = resolve));
    try {
      startWorker({
        createAgent: (session) =>
          createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'offline', baseURL: limited.url, maxRetries: 0 }), tools: fleetTools({ logFile }), ...session.agentOptions }),
        onError: (failure) => failedAttempt(failure),
      });
      const sessionId = uniqueName('retry-after');
      const { jobId } = await queue.enqueueRun({ sessionId, prompt: 'Do the task.' });
      const failure = await failed;
      expect(failure.error).toMatchObject({ code: 'model', status: 429, retryAfterMs: 30_000 });
      // BullMQ's own backoff would have tried again after 1 s; the API asked for 30.
      const waiting = (await Job.fromId(queue.queue, jobId))!;
      expect(waiting.attemptsMade).toBe(1);
      expect(await waiting.getState()).toBe('delayed');
      expect(waiting.delay).toBeGreaterThanOrEqual(30_000);
      // Not waiting out the 30 s here: promoted, the next attempt continues the run.
      await waiting.promote();
      const result = await finished(jobId);
      expect(result.status).toBe('awaiting-approval');
      expect((await Job.fromId(queue.queue, jobId))!.attemptsMade).toBe(2);
      expect(executions(logFile).map((execution) => `${execution.name} ${execution.n}`)).toEqual(['step 0', 'step 1']);
    } finally {
      await limited.close();
    }
  });

  it.skipIf(!reachable)('a job of another queue over the same store (or of a queue whose Redis was emptied) is not taken for an earlier job of the session', { timeout: 120_000 }, async () => {
    logFile = join(tempDir('ah-fleet-'), 'executions.jsonl');
    const sessionId = uniqueName('two-queues');
    // Two new queues: BullMQ numbers each queue's jobs from 1 unless the job id is given.
    const opened = [uniqueName('fleet-a'), uniqueName('fleet-b')].map((queueName) => ({
      queueName,
      queue: createAgentQueue({ connection: bullConnection(place.redisUrl), queueName, prefix: place.bullPrefix }),
      events: new QueueEvents(queueName, { connection: bullConnection(place.redisUrl), prefix: place.bullPrefix }),
    }));
    try {
      const results: AgentJobResult[] = [];
      for (const [index, { queueName, queue: agentQueue, events: queueEvents }] of opened.entries()) {
        await queueEvents.waitUntilReady();
        startWorker({ queueName });
        const { jobId } = await agentQueue.enqueueRun({ sessionId, prompt: index === 0 ? 'Do the task.' : 'Then tidy up.' });
        results.push((await (await Job.fromId(agentQueue.queue, jobId))!.waitUntilFinished(queueEvents, 90_000)) as AgentJobResult);
      }
      expect(results[1]!.runId).not.toBe(results[0]!.runId);
      const prompts = (await entriesOf(sessionId)).filter((entry) => entry.kind === 'message' && entry.message.role === 'user' && JSON.stringify(entry.message.content).includes('Then tidy up.'));
      expect(prompts).toHaveLength(1);
    } finally {
      for (const { queue: agentQueue, events: queueEvents } of opened) await Promise.all([agentQueue.close(), queueEvents.close()]);
    }
  });

  it.skipIf(!reachable)('a worker closed with force in the middle of a tool call hands the job back at once; another resumes it exactly once', { timeout: 120_000 }, async () => {
    logFile = join(tempDir('ah-fleet-'), 'executions.jsonl');
    let hang!: (toolUseId: string) => void;
    const hanging = new Promise<string>((resolve) => (hang = resolve));
    let hung: string | undefined;
    // The call waits on a promise nothing settles, and ignores its signal.
    const stuck = fleetTools({
      logFile,
      onStart: ({ toolUseId, name, n }) => {
        if (name !== 'step' || n !== 1 || hung !== undefined) return;
        hung = toolUseId;
        hang(toolUseId);
        return new Promise<never>(() => undefined);
      },
    });
    const first = startWorker({
      createAgent: (session) => createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'offline', baseURL: model.url, maxRetries: 0 }), tools: stuck, ...session.agentOptions }),
    });
    const sessionId = uniqueName('forced');
    const { jobId } = await queue.enqueueRun({ sessionId, prompt: 'Do the task.' });
    const hungCall = await hanging;
    await first.close({ force: true });
    expect((await Job.fromId(queue.queue, jobId))!.attemptsMade).toBe(0);

    startWorker();
    const parked = await finished(jobId);
    expect(parked.status).toBe('awaiting-approval');
    const done = await finished((await queue.enqueueApproval({ sessionId, approvalId: parked.pendingApprovals[0]!, decision: { behavior: 'allow' } })).jobId);
    expect(done.status).toBe('completed');
    const ran = executions(logFile);
    const results = storedResults(await entriesOf(sessionId));
    expect(new Set(ran.map((execution) => execution.toolUseId)).size).toBe(ran.length);
    expect(results.get(hungCall)).toMatch(INTERRUPTED);
    expect(ran.map((execution) => `${execution.name} ${execution.n}`)).toEqual(['step 0', 'step 1', 'publish 2', 'step 3', 'step 4']);
    const prompts = (await entriesOf(sessionId)).filter((entry) => entry.kind === 'message' && entry.message.role === 'user' && JSON.stringify(entry.message.content).includes('Do the task.'));
    expect(prompts).toHaveLength(1);
  });

  it.skipIf(!reachable)('a worker killed with SIGKILL in the middle of a tool call leaves the session to another, which resumes it exactly once', async () => {
    logFile = join(tempDir('ah-fleet-'), 'executions.jsonl');
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/bullmq/fleet-worker.child.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...placeToEnv(place), FLEET_LOG: logFile, FLEET_MODEL_URL: model.url, FLEET_HANG_STEP: '1', FLEET_LEASE_MS: '1500', FLEET_LOCK_MS: '1000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const hanging = new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /hanging (\S+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before hanging:\n${output}`)));
    });
    const sessionId = uniqueName('killed');
    const { jobId } = await queue.enqueueRun({ sessionId, prompt: 'Do the task.' });
    const hungCall = await hanging;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    // Another worker takes the job over once the dead worker's lock and lease run out.
    startWorker();
    const parked = await finished(jobId);
    expect(parked.status).toBe('awaiting-approval');
    const done = await finished((await queue.enqueueApproval({ sessionId, approvalId: parked.pendingApprovals[0]!, decision: { behavior: 'allow' } })).jobId);
    expect(done.status).toBe('completed');

    const ran = executions(logFile);
    const results = storedResults(await entriesOf(sessionId));
    // No call ran twice; the one cut off by the kill was answered as interrupted, not run again.
    expect(new Set(ran.map((execution) => execution.toolUseId)).size).toBe(ran.length);
    expect(ran.filter((execution) => execution.toolUseId === hungCall)).toHaveLength(1);
    expect(results.get(hungCall)).toMatch(INTERRUPTED);
    // Every acknowledged result is from exactly one execution; the prompt was sent once.
    const acknowledged = [...results].filter(([, content]) => !INTERRUPTED.test(content)).map(([id]) => id);
    expect(acknowledged.every((id) => ran.some((execution) => execution.toolUseId === id))).toBe(true);
    expect(ran.map((execution) => `${execution.name} ${execution.n}`)).toEqual(['step 0', 'step 1', 'publish 2', 'step 3', 'step 4']);
    const prompts = (await entriesOf(sessionId)).filter((entry) => entry.kind === 'message' && entry.message.role === 'user' && JSON.stringify(entry.message.content).includes('Do the task.'));
    expect(prompts).toHaveLength(1);
  }, 240_000);
});
