import { DelayedError, Worker, type Job } from 'bullmq';
import { randomId } from '../ids/random-id.js';
import type { Agent } from '../agent/agent.js';
import type { AgentRun } from '../agent/agent-run.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import { LeaseLostError } from '../errors/lease-lost-error.js';
import { ModelError } from '../errors/model-error.js';
import { McpConnectionError } from '../errors/mcp-connection-error.js';
import { SessionWriteError } from '../errors/session-write-error.js';
import { accepts, checkOptions, isAbortSignal, isBoolean, isFunction, isNonEmptyString, isObject, isPositiveInteger, required, type OptionCheck, type OptionsSpec } from '../options/index.js';
import { MAX_TIMER_MS } from '../types/max-timer-ms.js';
import { storeEntries } from '../session/store-entries.js';
import { foldEntries, pendingApprovalsOf } from '../state/index.js';
import type { SessionLease, SessionStore } from '../session/session-store.js';
import { DEFAULT_AGENT_QUEUE_NAME, runIdOfJob, type AgentJobData, type AgentJobResult } from './agent-job.js';
import type { AgentQueueLocation } from './bullmq-connection.js';
import { jobProgress } from './job-progress.js';
import { agentJobBackoff } from './agent-job-backoff.js';
import { storedOutage } from './stored-outage.js';
import { closingStore } from './closing-store.js';
import type { AgentWorkerCloseOptions } from './agent-worker-close-options.js';

/** What the worker hands `createAgent` for one job. */
export interface AgentWorkerSession {
  /** The job's session. */
  sessionId: string;
  /** BullMQ's id of the job. */
  jobId: string;
  /**
   * Spread these into `createAgent`: the store, the fencing token of the lease this worker holds
   * on the session, the check that keeps a tool call from starting once that lease ran out by the
   * worker's clock (`checkLease`), and `sessionId` for a new session or `resume` for a stored one.
   */
  agentOptions: { store: SessionStore; fencingToken: number; checkLease: () => LeaseLostError | undefined; sessionId?: string; resume?: string };
}

/** A job's failure, as `onError` receives it. */
export interface AgentWorkerError {
  /** The job. */
  jobId: string;
  /** Its session. */
  sessionId: string;
  /** What went wrong. */
  error: Error;
}

/** Options of {@link createAgentWorker}. */
export interface AgentWorkerOptions extends AgentQueueLocation {
  /** The session store every worker of the fleet shares; it must have `leases` (PostgreSQL, Redis, file). */
  store: SessionStore;
  /**
   * Makes the agent for a job: `createAgent({ model, tools, ...session.agentOptions })`. The worker
   * runs it and closes it when the job is done. Keep `store`, `fencingToken`, `checkLease`,
   * `sessionId` and `resume` as given: they are what make a job run beside no other and resume
   * exactly once.
   */
  createAgent: (session: AgentWorkerSession) => Agent | Promise<Agent>;
  /**
   * Jobs this worker runs at once (on different sessions).
   * @default 1
   */
  concurrency?: number;
  /**
   * The lifetime of the worker's lease on a session, renewed every third of it while the job
   * runs. A worker that dies holds its sessions this long at most. A tool call of the job does not
   * start once this long has passed on the worker's clock (`now`) since the lease was last taken or
   * renewed (timed from when the request was sent, so never later than the store's own end): a
   * worker that stalled (a long pause, a slow permission step) may have lost the session to
   * another by then. The job is then put back, and the next holder continues the session.
   * @default 30000
   */
  leaseTtlMs?: number;
  /**
   * The clock the worker times its leases with, in milliseconds (see `leaseTtlMs`); only compared
   * with its own readings. Tests pass the manual clock they give the store
   * (`memorySessionStore({ now })`), so a lease runs out without waiting.
   * A reading below an earlier one (a wall clock such as `Date.now` set back) is not trusted: no
   * more tool calls of the job start, and the job is put back for a fresh lease.
   * @default performance.now (monotonic: a step of the system clock does not move a lease's end)
   */
  now?: () => number;
  /**
   * How long a job for a session another worker holds waits before it is tried again (delayed,
   * not counted as an attempt).
   * @default 1000
   */
  heldRetryMs?: number;
  /**
   * BullMQ's lock on an active job, renewed by a live worker: the job of a worker that died goes
   * back to the queue once it runs out (BullMQ checks every `lockDurationMs`).
   * @default 30000
   */
  lockDurationMs?: number;
  /**
   * The holder name on this worker's leases. Give each worker process its own: a store hands a
   * holder its own lease again, so two live processes with one name would not keep each other out.
   * @default `agent-worker-` and a random id
   */
  workerId?: string;
  /**
   * Receives jobs that failed (the job is retried as its attempts allow). Not called for jobs
   * put back because their session was held or their lease was lost.
   * @default undefined (failures are only recorded on the job)
   */
  onError?: (failure: AgentWorkerError) => void;
}

/** A running agent worker. */
export interface AgentWorker {
  /** The holder name on its leases. */
  readonly id: string;
  /** The BullMQ worker, for the host's own events and metrics. */
  readonly worker: Worker<AgentJobData, AgentJobResult>;
  /**
   * Stops taking jobs and waits for the active ones to finish; with `force` (or once `timeoutMs`
   * has passed, or `signal` aborted) stops them instead and hands them back to the queue, where
   * another worker resumes each where it stopped. Resolves once the BullMQ worker is closed.
   * @throws ConfigurationError naming a bad option.
   * @example
   * process.once('SIGTERM', () => void worker.close({ timeoutMs: 20_000 }).then(() => process.exit(0)));
   */
  close(options?: AgentWorkerCloseOptions): Promise<void>;
}

const isConnection: OptionCheck = (value, place) => {
  if (isObject(value)) return;
  throw new ConfigurationError(`${place.owner}: \`connection\` must be ioredis options (e.g. { host: '127.0.0.1', port: 6379 }) or an ioredis instance, got ${JSON.stringify(value)}.`);
};

const isLeasedStore: OptionCheck = (value, place) => {
  const store = value as Partial<SessionStore> | undefined;
  if (isObject(value) && typeof store?.append === 'function' && isObject(store.leases)) return;
  throw new ConfigurationError(
    `${place.owner}: \`store\` must be a session store with \`leases\` (postgresSessionStore, redisSessionStore or fileSessionStore), shared by every worker: leases keep two workers off one session.`,
  );
};

const OPTIONS: OptionsSpec<AgentWorkerOptions> = {
  connection: required(isConnection),
  queueName: isNonEmptyString,
  prefix: isNonEmptyString,
  store: required(isLeasedStore),
  createAgent: required(isFunction),
  concurrency: isPositiveInteger,
  leaseTtlMs: isPositiveInteger,
  now: isFunction,
  heldRetryMs: isPositiveInteger,
  lockDurationMs: isPositiveInteger,
  workerId: isNonEmptyString,
  onError: isFunction,
};

const CLOSE_OPTIONS: OptionsSpec<AgentWorkerCloseOptions> = {
  force: isBoolean,
  // A timer fires at once past its limit: a longer timeout would stop the jobs at once.
  timeoutMs: accepts(`an integer of 0 or more, at most ${MAX_TIMER_MS} (about 24.8 days: a timer fires at once past it)`, (value) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_TIMER_MS),
  signal: isAbortSignal,
};

/** An error that ended a run and that a later attempt may get past: a model outage, a store that failed to write. */
function isOutage(error: Error | undefined): boolean {
  // An MCP server down while an approval for its tool is answered: the approval is still pending.
  return (ModelError.isInstance(error) && error.retryable) || SessionWriteError.isInstance(error) || McpConnectionError.isInstance(error);
}

/** True when the store holds no entry of the session (deleted, or never written); reads one entry at most. */
async function hasNoEntries(store: SessionStore, sessionId: string): Promise<boolean> {
  for await (const _entry of storeEntries(store, sessionId)) return false;
  return true;
}

/** Puts a job back for later without counting an attempt. */
async function putBack(job: Job, token: string | undefined, delayMs: number): Promise<never> {
  await job.moveToDelayed(Date.now() + delayMs, token);
  throw new DelayedError();
}

/**
 * A BullMQ worker that runs agent jobs (`createAgentQueue`): for each job it takes the session's
 * lease, or puts the job back for later while another worker holds it; resumes the session from
 * the shared store; and writes under the lease's fencing token, so a worker that lost its lease
 * cannot write. A job whose worker died is taken over once its BullMQ lock runs out: the new
 * worker reads in the transcript how far the job's run went (by its run id, `job_<jobId>`) and
 * continues it; the prompt is not sent again, an approval is not answered twice, and a tool that
 * may have been running is answered as interrupted, not run again. A worker that stalled past its
 * lease starts no more tool calls of the job (`leaseTtlMs`): the job is put back for the next holder.
 * @throws ConfigurationError naming the bad option.
 * @example
 * const worker = createAgentWorker({
 *   connection: { host: '127.0.0.1', port: 6379 },
 *   store: postgresSessionStore({ pool }),
 *   createAgent: (session) => createAgent({ model, tools, ...session.agentOptions }),
 * });
 */
export function createAgentWorker(options: AgentWorkerOptions): AgentWorker {
  checkOptions<AgentWorkerOptions>(options, OPTIONS, {
    owner: 'createAgentWorker',
    usage: 'createAgentWorker({ connection, store, createAgent: (session) => createAgent({ model, ...session.agentOptions }) })',
  });
  const store = options.store;
  const leases = store.leases!;
  const id = options.workerId ?? `agent-worker-${randomId(10)}`;
  const ttlMs = options.leaseTtlMs ?? 30_000;
  const now = options.now ?? (() => performance.now());
  const heldRetryMs = options.heldRetryMs ?? 1000;
  const lockDuration = options.lockDurationMs ?? 30_000;
  /**
   * Sessions a job of this worker is running. A store gives a holder its own lease again (with a
   * new token), so with `concurrency` above 1 a second job of a session would take the lease from
   * the first, in the middle of its tool call: it is put back instead, as for another worker.
   */
  const running = new Set<string>();
  /** How to stop each job under way (a forced close), by job id. */
  const stops = new Map<string, () => Promise<void>>();
  /** A forced close began: jobs still handed to this worker go back to the queue at once. */
  let stopping = false;
  const stopAll = (): void => {
    stopping = true;
    for (const stop of stops.values()) void stop();
  };

  async function processJob(job: Job<AgentJobData, AgentJobResult>, token?: string): Promise<AgentJobResult> {
    const { sessionId } = job.data;
    if (stopping) return putBack(job, token, 0);
    if (running.has(sessionId)) return putBack(job, token, heldRetryMs);
    running.add(sessionId);
    try {
      return await processLeased(job, token);
    } finally {
      running.delete(sessionId);
    }
  }

  async function processLeased(job: Job<AgentJobData, AgentJobResult>, token: string | undefined): Promise<AgentJobResult> {
    const data = job.data;
    const { sessionId } = data;
    const runId = runIdOfJob(job.id!);
    // Timed from before the request: the store's lease ends no sooner than this, whatever its clock.
    const askedAt = now();
    const lease = await leases.acquire(sessionId, { holder: id, ttlMs });
    if (!lease) return putBack(job, token, heldRetryMs);
    let current: SessionLease | undefined = lease;
    let agent: Agent | undefined;
    let lost = false;
    /** A forced close stopped the job: its lease was released, its agent interrupted. */
    let stopped = false;
    /** When the lease ends by this worker's clock, unless a renewal comes back first. */
    let deadline = askedAt + ttlMs;
    /** The latest reading of the clock, and how far a later one went back from it (a wall clock set back). */
    let latest = askedAt;
    let wentBackMs = 0;
    const read = (): number => {
      const time = now();
      if (time < latest) wentBackMs = Math.max(wentBackMs, latest - time);
      else latest = time;
      return time;
    };
    const renewal = setInterval(() => {
      if (!current) return;
      const sentAt = read();
      leases.renew(current, { ttlMs }).then(
        (renewed) => {
          current = renewed;
          if (renewed) deadline = Math.max(deadline, sentAt + ttlMs);
          else {
            lost = true;
            agent?.interrupt('the worker lost its lease on the session');
          }
        },
        () => undefined, // a failed renewal is retried on the next tick; the lease's expiry is the bound
      );
    }, Math.max(1, Math.floor(ttlMs / 3)));
    /** The store the job's agent writes through: shut when a forced close stops the job. */
    const journal = closingStore(store);
    const stop = async (): Promise<void> => {
      if (stopped) return;
      stopped = true;
      lost = true;
      const held = current;
      current = undefined;
      // Writes stop first, so the interrupted run writes nothing more (not its end), even when the
      // lease cannot be released: the next holder reads the run as unfinished, and continues it.
      const underWay = journal.shut(() => new LeaseLostError({ sessionId, fencingToken: lease.fencingToken, currentLease: undefined, now: Date.now() }));
      // The run ends now, whatever the store does (a hung append is given up after the agent's
      // storeWriteGraceMs): the job goes back to the queue without waiting on the writes below.
      agent?.interrupt(`the worker "${id}" is closing`);
      // The writes under way land under the lease before it goes: a tool's result being stored as
      // the close began is kept, so the next holder sees the call ran.
      await underWay;
      if (held) await leases.release(held).catch(() => undefined);
    };
    stops.set(job.id!, stop);
    if (stopping) void stop();
    // Read right before each tool call starts: no store round trip, and a pause that outlasted the
    // lease (when no renewal could run) is seen at once.
    // A clock that went back cannot tell how long has passed: the lease may have run out meanwhile.
    /** A tool call of the job was let start: the call was stored first, so the session had entries. */
    let toolStarted = false;
    const checkLease = (): LeaseLostError | undefined => {
      const time = read();
      if (!lost && wentBackMs === 0 && time < deadline) {
        toolStarted = true;
        return undefined;
      }
      const reason = stopped
        ? `worker "${id}" is closing (AgentWorker.close with force, timeoutMs or signal)`
        : lost
        ? `the store refused to renew it (worker "${id}")`
        : wentBackMs > 0
          ? `the clock of worker "${id}" (its \`now\` option) went back ${wentBackMs} ms while it held the lease, so it cannot tell whether its ${ttlMs} ms (leaseTtlMs) ran out; give the worker a monotonic clock (the default, performance.now)`
          : `its ${ttlMs} ms (leaseTtlMs) ran out ${time - deadline} ms ago by the clock of worker "${id}", with no renewal since`;
      return new LeaseLostError({ sessionId, fencingToken: lease.fencingToken, currentLease: undefined, now: time, reason });
    };
    try {
      // Read once: the job's agent resumes from what this load read (closingStore.loadForJob).
      const entries = await journal.loadForJob(sessionId);
      /**
       * Puts the job back after its lease was lost, unless the lease ended because the host deleted
       * the session (a session that had entries has none now): the next attempt would start the run
       * again from scratch in a new session, sending the prompt again and running its tools twice.
       */
      const afterLostLease = async (): Promise<AgentJobResult> => {
        if ((entries.length > 0 || toolStarted) && (await hasNoEntries(store, sessionId))) return { sessionId, runId, status: 'session-deleted', pendingApprovals: [] };
        // A job stopped by a closing worker is free for another at once: its lease is released.
        return putBack(job, token, stopped ? 0 : heldRetryMs);
      };
      // An answer for a session that is not there (deleted, or never created) has nothing to continue.
      if (data.kind === 'approval' && entries.length === 0) return { sessionId, runId, status: 'approval-not-pending', pendingApprovals: [] };
      const progress = jobProgress(entries, runId);
      // A run an outage ended failed its attempt (below): this attempt continues it. Each such
      // attempt stored one run end `error` and was counted by BullMQ; one more means the last
      // attempt's run failed for good (an error no retry gets past, or none left) and its worker
      // died before BullMQ heard of it: the job ends with that failure, the model is not asked again.
      const retrying = progress.endedWith === 'error' && progress.errorEnds <= job.attemptsMade;
      // An outage ended the last attempt's run while attempts were left, and its worker died before
      // it failed the attempt (BullMQ did not count it): failed now, as that worker would have, so
      // the job is tried again after its backoff instead of ending with the outage.
      const uncounted = progress.endedWith === 'error' && progress.errorEnds === job.attemptsMade + 1 ? storedOutage(progress.lastError) : undefined;
      if (uncounted !== undefined && job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw uncounted;
      if (progress.endedWith !== undefined && !retrying) {
        // The job's run ended, but its worker died before BullMQ heard of it.
        const pending = pendingApprovalsOf(foldEntries(entries, { sessionId }));
        return { sessionId, runId, status: progress.endedWith as AgentJobResult['status'], pendingApprovals: pending.map((approval) => approval.id) };
      }
      const agentOptions = { store: journal.store, fencingToken: lease.fencingToken, checkLease, ...(entries.length > 0 ? { resume: sessionId } : { sessionId }) };
      agent = await options.createAgent({ sessionId, jobId: job.id!, agentOptions });
      try {
        await agent.ready;
        if (stopped) return await afterLostLease();
        if (agent.sessionId !== sessionId) {
          throw new ConfigurationError(
            `createAgentWorker: createAgent returned an agent for session "${agent.sessionId}" for a job on "${sessionId}"; spread session.agentOptions into createAgent last.`,
          );
        }
        let run: AgentRun;
        if (data.kind === 'run') {
          run = progress.promptDelivered ? agent.continue({ runId }) : agent.run(data.prompt, { runId });
        } else if (agent.pendingApprovals.some((approval) => approval.id === data.approvalId)) {
          run = agent.resolveApproval(data.approvalId, data.decision, { runId });
        } else if (progress.started) {
          run = agent.continue({ runId });
        } else {
          return { sessionId, runId, status: 'approval-not-pending', pendingApprovals: agent.pendingApprovals.map((approval) => approval.id) };
        }
        const result = await run.result;
        if (lost || LeaseLostError.isInstance(result.error)) return await afterLostLease();
        // Failed as an attempt while attempts are left, so BullMQ tries the job again after its backoff
        // (agentJobBackoff: no sooner than the `retryAfterMs` a rate limit or an overload asked for).
        if (result.status === 'error' && isOutage(result.error) && job.attemptsMade + 1 < (job.opts.attempts ?? 1)) {
          // The job's backoff (BullMQ's exponential, which a worker of any version knows) stretched
          // to what the API asked for: BullMQ reads this job object's `opts.backoff` as it fails the
          // attempt; the job stored in Redis keeps its own.
          if (ModelError.isInstance(result.error) && result.error.retryAfterMs !== undefined) {
            job.opts.backoff = { type: 'fixed', delay: agentJobBackoff(job.attemptsMade + 1, result.error, job) };
          }
          throw result.error;
        }
        return {
          sessionId,
          runId,
          status: result.status,
          pendingApprovals: result.pendingApprovals.map((approval) => approval.id),
          ...(result.error ? { error: result.error.message } : {}),
        };
      } catch (error) {
        // Lost the lease while loading (the resume's own writes were refused): try again later.
        if (lost || LeaseLostError.isInstance(error)) return await afterLostLease();
        throw error;
      } finally {
        await agent.close();
      }
    } finally {
      stops.delete(job.id!);
      clearInterval(renewal);
      if (current) await leases.release(current).catch(() => undefined);
    }
  }

  const worker = new Worker<AgentJobData, AgentJobResult>(options.queueName ?? DEFAULT_AGENT_QUEUE_NAME, processJob, {
    connection: options.connection,
    ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
    concurrency: options.concurrency ?? 1,
    lockDuration,
    stalledInterval: lockDuration,
    // A job whose worker died is resumed where it stopped, so taking it over again is safe.
    maxStalledCount: 1000,
    name: id,
    // The backoff type of jobs queued by earlier versions of createAgentQueue: exponential, but never sooner than the API's retry-after.
    settings: { backoffStrategy: (attemptsMade, _type, error, job) => agentJobBackoff(attemptsMade, error, job) },
  });
  worker.on('failed', (job, error) => {
    if (job && !(error instanceof DelayedError)) options.onError?.({ jobId: job.id!, sessionId: job.data.sessionId, error });
  });
  // BullMQ reports connection trouble here; without a listener Node would crash the host.
  worker.on('error', () => undefined);
  let closing: Promise<void> | undefined;
  const close = (closeOptions?: AgentWorkerCloseOptions): Promise<void> => {
    checkOptions<AgentWorkerCloseOptions>(closeOptions, CLOSE_OPTIONS, { owner: 'AgentWorker.close', optional: true, usage: 'worker.close({ force: true }) or worker.close({ timeoutMs: 20000 })' });
    const { force = false, timeoutMs, signal } = closeOptions ?? {};
    if (force || signal?.aborted || timeoutMs === 0) stopAll();
    if (closing) {
      signal?.addEventListener('abort', stopAll, { once: true });
      if (timeoutMs !== undefined && timeoutMs > 0) setTimeout(stopAll, timeoutMs).unref?.();
      return closing;
    }
    closing = (async () => {
      // BullMQ's close takes no more jobs and waits for those under way, which a stop hands back.
      const closed = worker.close();
      const timer = timeoutMs !== undefined && timeoutMs > 0 ? setTimeout(stopAll, timeoutMs) : undefined;
      signal?.addEventListener('abort', stopAll, { once: true });
      try {
        await closed;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', stopAll);
      }
    })();
    return closing;
  };
  return { id, worker, close };
}
