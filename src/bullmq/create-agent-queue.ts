import { Queue } from 'bullmq';
import { ConfigurationError } from '../errors/configuration-error.js';
import { randomId } from '../ids/random-id.js';
import { LONE_SURROGATE } from '../model/code-point-boundary.js';
import type { ApprovalDecision } from '../loop/apply-approval-decision.js';
import { checkApprovalDecision } from '../loop/check-approval-decision.js';
import { checkOptions, describeOptionValue, isNonEmptyString, isObject, isPositiveInteger, required, type OptionCheck, type OptionsSpec } from '../options/index.js';
import { DEFAULT_AGENT_QUEUE_NAME, type AgentJobData } from './agent-job.js';
import { AGENT_JOB_BACKOFF_DELAY_MS } from './agent-job-backoff.js';
import { isJobSessionId } from './is-job-session-id.js';
import type { AgentQueueLocation } from './bullmq-connection.js';

/** Options of {@link createAgentQueue}. */
export interface AgentQueueOptions extends AgentQueueLocation {
  /**
   * How many times a job that failed (a store or model outage, say) is tried in all, with
   * exponential backoff from one second, but never sooner than the model's API asked
   * (`ModelError.retryAfterMs`, from a 429's or 529's `retry-after`). A run that a model outage (a retryable `ModelError`), a
   * store failure (`SessionWriteError`) or an MCP server that is down when an approval for one of
   * its tools is answered (`McpConnectionError`) ended fails its attempt while attempts are left, and the
   * next attempt continues it where it stopped; the last one returns its status `error`. A job for
   * a session another worker holds, or whose worker died, is tried again without counting as an
   * attempt.
   * @default 3
   */
  attempts?: number;
}

/** Options of `AgentQueue.enqueueRun`. */
export interface EnqueueRunOptions {
  /**
   * The session to run in; a worker creates it on its first job. Any non-blank string of
   * well-formed Unicode without NUL characters, at most `MAX_SESSION_ID_BYTES` (200) bytes of UTF-8
   * (what every session store accepts).
   */
  sessionId: string;
  /** The user's message. */
  prompt: string;
  /**
   * Your key for this request (an HTTP request's idempotency key, a message id), so that sending
   * it twice (a client retry, a double submit, two servers handling one message) queues one job
   * and runs it once. Enqueueing again with the same session and key returns the first job
   * (`duplicate: true`) while the queue keeps it (waiting, running, completed or failed: a request
   * whose job failed is tried again under a new key); once the queue has dropped it (after 10,000
   * newer completed or failed jobs), the new job finds that run in the session's transcript and
   * runs nothing. A key reused for another request of the session is refused with a
   * `ConfigurationError` while the first job is kept. Any non-blank string of well-formed
   * Unicode, at most 200 bytes of UTF-8.
   * @default undefined (every call queues a new job)
   */
  idempotencyKey?: string;
}

/** Options of `AgentQueue.enqueueApproval`. */
export interface EnqueueApprovalOptions {
  /** The session that waits. */
  sessionId: string;
  /** The approval's id (`PendingApproval.id`, as `store.listPending()` lists it). */
  approvalId: string;
  /** The answer: `{ behavior: 'allow' }` or `{ behavior: 'deny', message }` (plain JSON: it travels in the job). */
  decision: ApprovalDecision;
  /**
   * Your key for this request (an HTTP request's idempotency key, a message id), so that sending
   * it twice (a client retry, a double submit, two servers handling one message) queues one job
   * and runs it once. Enqueueing again with the same session and key returns the first job
   * (`duplicate: true`) while the queue keeps it (waiting, running, completed or failed: a request
   * whose job failed is tried again under a new key); once the queue has dropped it (after 10,000
   * newer completed or failed jobs), the new job finds that run in the session's transcript and
   * runs nothing. A key reused for another request of the session is refused with a
   * `ConfigurationError` while the first job is kept. Any non-blank string of well-formed
   * Unicode, at most 200 bytes of UTF-8.
   * @default undefined (every call queues a new job)
   */
  idempotencyKey?: string;
}

/** A job on the queue. */
export interface EnqueuedAgentJob {
  /**
   * BullMQ's job id (random, unique across queues; with an `idempotencyKey`, made of the kind, the
   * session and the key); the job's run carries `job_<jobId>` as its run id.
   */
  jobId: string;
  /**
   * True when another call with the same session and `idempotencyKey` queued this job (an earlier
   * one, or one sent at the same time: of those, exactly one is told it queued it): nothing new was queued.
   */
  duplicate?: boolean;
  /** The session it runs on. */
  sessionId: string;
}

/** Where a host puts the work for its agent workers (`createAgentWorker`). */
export interface AgentQueue {
  /**
   * Queues a prompt for a session.
   * @throws ConfigurationError, before anything is queued, for a session id the stores would refuse
   * (not a string, blank, a lone surrogate, a NUL character, longer than `MAX_SESSION_ID_BYTES`
   * bytes of UTF-8) or an empty prompt.
   */
  enqueueRun(options: EnqueueRunOptions): Promise<EnqueuedAgentJob>;
  /**
   * Queues the answer to a pending approval.
   * @throws ConfigurationError, before anything is queued, for a session id the stores would refuse
   * or a malformed decision.
   */
  enqueueApproval(options: EnqueueApprovalOptions): Promise<EnqueuedAgentJob>;
  /** The BullMQ queue, for the host's own monitoring (`getJobCounts`, `QueueEvents`, ...). */
  readonly queue: Queue<AgentJobData>;
  /** Closes the queue's connection. */
  close(): Promise<void>;
}

const isConnection: OptionCheck = (value, place) => {
  if (isObject(value)) return;
  throw new ConfigurationError(`${place.owner}: \`connection\` must be ioredis options (e.g. { host: '127.0.0.1', port: 6379 }) or an ioredis instance, got ${JSON.stringify(value)}.`);
};

const OPTIONS: OptionsSpec<AgentQueueOptions> = {
  connection: required(isConnection),
  queueName: isNonEmptyString,
  prefix: isNonEmptyString,
  attempts: isPositiveInteger,
};

/** At most this many bytes of UTF-8 in an `idempotencyKey`. */
const MAX_IDEMPOTENCY_KEY_BYTES = 200;

const isIdempotencyKey: OptionCheck = (value, place) => {
  const problem =
    typeof value !== 'string'
      ? `is ${describeOptionValue(value)}`
      : value.trim() === ''
        ? 'is blank'
        : LONE_SURROGATE.test(value)
          ? 'has a lone surrogate'
          : Buffer.byteLength(value, 'utf8') > MAX_IDEMPOTENCY_KEY_BYTES
            ? `is ${Buffer.byteLength(value, 'utf8')} bytes of UTF-8`
            : undefined;
  if (problem === undefined) return;
  throw new ConfigurationError(
    `${place.owner}: \`${place.path}\` must be a non-blank string of well-formed Unicode of at most ${MAX_IDEMPOTENCY_KEY_BYTES} bytes of UTF-8, e.g. the request's idempotency key; it ${problem}. Nothing was queued.`,
  );
};

const RUN: OptionsSpec<EnqueueRunOptions> = { sessionId: required(isJobSessionId), prompt: required(isNonEmptyString), idempotencyKey: isIdempotencyKey };

const isDecision: OptionCheck = (value) => {
  const decision = value as { behavior?: unknown; message?: unknown } | undefined;
  if (decision?.behavior !== 'allow' && !(decision?.behavior === 'deny' && typeof decision.message === 'string')) {
    throw new ConfigurationError(
      `enqueueApproval: \`decision\` must be { behavior: 'allow' } or { behavior: 'deny', message: 'why, for the model' }, got ${JSON.stringify(value)}.`,
    );
  }
  // The rest of what resolveApproval checks, refused here rather than failing the job every attempt.
  checkApprovalDecision(value, 'enqueueApproval');
};

const APPROVAL: OptionsSpec<EnqueueApprovalOptions> = {
  sessionId: required(isJobSessionId),
  approvalId: required(isNonEmptyString),
  decision: required(isDecision),
  idempotencyKey: isIdempotencyKey,
};

/**
 * The job id of a keyed request: unique per kind, session and key. Both are URI-encoded (never
 * ':', which BullMQ refuses in ids, nor '/', which parts them), so two pairs never share an id.
 */
/** A job's request, without the id of the call that queued it: what two calls with one key must agree on. */
const requestOf = (data: AgentJobData): AgentJobData => {
  const { enqueueId: _enqueueId, ...request } = data;
  return request;
};

const keyedJobId = (kind: AgentJobData['kind'], sessionId: string, key: string): string => `${kind}-key-${encodeURIComponent(sessionId)}/${encodeURIComponent(key)}`;

/**
 * A queue of agent jobs on BullMQ: prompts and approval answers for sessions, run by
 * `createAgentWorker` processes, one job per session at a time.
 * @throws ConfigurationError naming the bad option.
 * @example
 * const queue = createAgentQueue({ connection: { host: '127.0.0.1', port: 6379 } });
 * await queue.enqueueRun({ sessionId: 'user-42', prompt: 'Tidy the docs folder.' });
 */
export function createAgentQueue(options: AgentQueueOptions): AgentQueue {
  checkOptions<AgentQueueOptions>(options, OPTIONS, { owner: 'createAgentQueue', usage: "createAgentQueue({ connection: { host: '127.0.0.1', port: 6379 } })" });
  // BullMQ's own exponential backoff, which every worker knows: a custom backoff type fails a job
  // on a worker without that strategy (one of an earlier version, mid-rollout) with "Unknown backoff
  // strategy" and leaves it active, not retried. The worker stretches it to a `retry-after` itself.
  const queue = new Queue<AgentJobData>(options.queueName ?? DEFAULT_AGENT_QUEUE_NAME, {
    connection: options.connection,
    ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
    defaultJobOptions: { attempts: options.attempts ?? 3, backoff: { type: 'exponential', delay: AGENT_JOB_BACKOFF_DELAY_MS }, removeOnComplete: { count: 10_000 }, removeOnFail: { count: 10_000 } },
  });
  const add = async (data: AgentJobData, idempotencyKey: string | undefined): Promise<EnqueuedAgentJob> => {
    if (idempotencyKey === undefined) {
      // A random id, not BullMQ's counter, which starts again at 1 in another queue or once the
      // queue's Redis is emptied: the job's run id (`job_<jobId>`) must never name an earlier job's
      // run in the session, or the worker would take that run for this job's and run nothing.
      const job = await queue.add(data.kind, data, { jobId: `${data.kind}-${randomId(16)}` });
      return { jobId: job.id!, sessionId: data.sessionId };
    }
    const jobId = keyedJobId(data.kind, data.sessionId, idempotencyKey);
    // BullMQ adds a job whose id it holds only once (atomically), and returns the same answer to
    // every call: the random id each call puts in its job tells whose job was kept. (Reading the
    // job before adding it could not: simultaneous calls all found none, and all said they queued it.)
    const enqueueId = randomId(16);
    await queue.add(data.kind, { ...data, enqueueId }, { jobId });
    const kept = await queue.getJob(jobId);
    const owner = data.kind === 'run' ? 'enqueueRun' : 'enqueueApproval';
    if (kept !== undefined && kept.data.enqueueId !== enqueueId && JSON.stringify(requestOf(kept.data)) !== JSON.stringify(data)) {
      throw new ConfigurationError(
        `${owner}: the idempotencyKey ${JSON.stringify(idempotencyKey)} of session ${JSON.stringify(data.sessionId)} already queued another request (job ${jobId}); nothing was queued. Use a new key for a new request.`,
      );
    }
    // A job the queue dropped at once (ended and removed before it was read back) was this call's.
    return { jobId, sessionId: data.sessionId, ...(kept !== undefined && kept.data.enqueueId !== enqueueId ? { duplicate: true } : {}) };
  };
  return {
    queue,
    enqueueRun(run) {
      checkOptions<EnqueueRunOptions>(run, RUN, { owner: 'enqueueRun', usage: "enqueueRun({ sessionId: 'user-42', prompt: 'Hello' })" });
      return add({ kind: 'run', sessionId: run.sessionId, prompt: run.prompt }, run.idempotencyKey);
    },
    enqueueApproval(approval) {
      checkOptions<EnqueueApprovalOptions>(approval, APPROVAL, { owner: 'enqueueApproval', usage: "enqueueApproval({ sessionId, approvalId, decision: { behavior: 'allow' } })" });
      return add({ kind: 'approval', sessionId: approval.sessionId, approvalId: approval.approvalId, decision: approval.decision }, approval.idempotencyKey);
    },
    close: () => queue.close(),
  };
}
