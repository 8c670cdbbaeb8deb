// A run job retried after an outage, whose next attempt then failed for good (an error no attempt
// gets past) and whose worker died before BullMQ heard of it: the job is handed out again, and
// must end with the failure the transcript records, not call the model again.
import { Worker, Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { createAgent, memorySessionStore, ModelError } from 'agent-harness';
import { createAgentWorker, type AgentJobResult } from 'agent-harness/bullmq';
import { scriptedModel, turn } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';
import { redis } from '../redis/redis-test-server.js';
import { uniqueName } from '../server-under-test.js';
import { bullConnection } from './fleet-stores.js';
import { useQueueUnderTest } from './queue-under-test.js';

describe.skipIf(!redis.reachable)('createAgentWorker: a retried run job whose run already failed for good', () => {
  const under = useQueueUnderTest('retried');
  const { queueName, prefix } = under;

  it('is handed out again after its worker died, ends with status error and does not call the model again', { timeout: 60_000 }, async () => {
    const store = memorySessionStore();
    const sessionId = uniqueName('failed-for-good');
    const jobId = uniqueName('job');
    const runId = `job_${jobId}`;
    // Attempt 1 failed on an outage (BullMQ counted it) and is waiting for its retry.
    const delayed = new Promise<void>((resolve) => under.events.on('delayed', (event) => event.jobId === jobId && resolve()));
    const failing = new Worker(queueName, async () => {
      throw new Error('the model is overloaded');
    }, { connection: bullConnection(redis.url), prefix });
    await under.queue.queue.add('run', { kind: 'run', sessionId, prompt: 'Go' }, { jobId, attempts: 3, backoff: { type: 'fixed', delay: 60_000 } });
    await delayed;
    await failing.close();
    // What the two attempts left in the session: the outage's run end, then the run end of an
    // error no retry gets past (HTTP 400), after which the worker died.
    const overloaded = new ModelError('HTTP 529 overloaded_error', { status: 529, retryable: true });
    const invalid = new ModelError('HTTP 400 invalid_request_error', { status: 400, errorType: 'invalid_request_error', retryable: false });
    const earlier = createAgent({ model: scriptedModel([turn('Working', { error: overloaded }), turn('Working', { error: invalid })]), store, sessionId });
    expect((await earlier.run('Go', { runId }).result).status).toBe('error');
    expect((await earlier.continue({ runId }).result).status).toBe('error');
    await earlier.close();
    const ends = (await loadEntries(store, sessionId)).filter((entry) => entry.kind === 'run-end');
    expect(ends.map((entry) => entry.kind === 'run-end' && entry.status)).toEqual(['error', 'error']);

    const model = scriptedModel(['Asked again.']);
    const worker = createAgentWorker({ connection: bullConnection(redis.url), queueName, prefix, store, createAgent: (session) => createAgent({ model, ...session.agentOptions }) });
    try {
      const job = (await Job.fromId(under.queue.queue, jobId))!;
      expect(job.attemptsMade).toBe(1);
      await job.promote();
      const result = (await job.waitUntilFinished(under.events, 30_000)) as AgentJobResult;
      expect(result).toMatchObject({ sessionId, runId, status: 'error' });
      expect(model.requests).toHaveLength(0);
      expect((await loadEntries(store, sessionId)).filter((entry) => entry.kind === 'run-end')).toHaveLength(2);
    } finally {
      await worker.close();
    }
  });

  it('whose worker died after storing an outage\'s run end but before BullMQ counted the attempt, is retried after its backoff, not ended with status error', { timeout: 60_000 }, async () => {
    const store = memorySessionStore();
    const sessionId = uniqueName('uncounted-outage');
    const jobId = uniqueName('job');
    const runId = `job_${jobId}`;
    // Attempt 1's run ended on an overloaded API with attempts left; its worker died right after
    // storing that end, so BullMQ never counted the attempt (attemptsMade is still 0).
    const overloaded = new ModelError('HTTP 529 overloaded_error', { status: 529, retryable: true });
    const earlier = createAgent({ model: scriptedModel([turn('Working', { error: overloaded })]), store, sessionId });
    expect((await earlier.run('Go', { runId }).result).status).toBe('error');
    await earlier.close();
    const [end] = (await loadEntries(store, sessionId)).filter((entry) => entry.kind === 'run-end');
    expect(end).toMatchObject({ status: 'error', error: { code: 'model', retryable: true, message: 'HTTP 529 overloaded_error' } });

    const model = scriptedModel(['Done after the outage.']);
    const failures: Error[] = [];
    const worker = createAgentWorker({ connection: bullConnection(redis.url), queueName, prefix, store, onError: ({ error }) => failures.push(error), createAgent: (session) => createAgent({ model, ...session.agentOptions }) });
    try {
      // Delayed for its retry, or (wrongly) finished: either ends the wait.
      const settled = new Promise<void>((resolve) => {
        under.events.on('delayed', (event) => event.jobId === jobId && resolve());
        under.events.on('completed', (event) => event.jobId === jobId && resolve());
      });
      await under.queue.queue.add('run', { kind: 'run', sessionId, prompt: 'Go' }, { jobId, attempts: 3, backoff: { type: 'fixed', delay: 60_000 } });
      await settled;
      const job = (await Job.fromId(under.queue.queue, jobId))!;
      expect(await job.getState()).toBe('delayed');
      // Failed as the dead worker would have failed it: counted, with the outage, and backing off.
      expect(job.attemptsMade).toBe(1);
      expect(job.failedReason).toBe('HTTP 529 overloaded_error');
      expect(failures.map((failure) => failure.message)).toEqual(['HTTP 529 overloaded_error']);
      expect(model.requests).toHaveLength(0);
      await job.promote();
      const result = (await job.waitUntilFinished(under.events, 30_000)) as AgentJobResult;
      expect(result).toMatchObject({ sessionId, runId, status: 'completed' });
      expect(model.requests).toHaveLength(1);
      // The prompt went to the session once.
      const prompts = (await loadEntries(store, sessionId)).filter((entry) => entry.kind === 'message' && entry.message.role === 'user' && JSON.stringify(entry.message.content).includes('Go'));
      expect(prompts).toHaveLength(1);
    } finally {
      await worker.close();
    }
  });

  it('whose worker died after storing an outage\'s run end on its last attempt, ends with status error', { timeout: 60_000 }, async () => {
    const store = memorySessionStore();
    const sessionId = uniqueName('last-outage');
    const jobId = uniqueName('job');
    const overloaded = new ModelError('HTTP 529 overloaded_error', { status: 529, retryable: true });
    const earlier = createAgent({ model: scriptedModel([turn('Working', { error: overloaded })]), store, sessionId });
    await earlier.run('Go', { runId: `job_${jobId}` }).result;
    await earlier.close();
    const model = scriptedModel(['Asked again.']);
    const worker = createAgentWorker({ connection: bullConnection(redis.url), queueName, prefix, store, createAgent: (session) => createAgent({ model, ...session.agentOptions }) });
    try {
      const job = await under.queue.queue.add('run', { kind: 'run', sessionId, prompt: 'Go' }, { jobId, attempts: 1 });
      expect((await job.waitUntilFinished(under.events, 30_000)) as AgentJobResult).toMatchObject({ status: 'error' });
      expect(model.requests).toHaveLength(0);
    } finally {
      await worker.close();
    }
  });

  it('a job queued with the earlier custom backoff type (agent-harness) is still retried after an outage, counting the attempt', { timeout: 60_000 }, async () => {
    const store = memorySessionStore();
    const sessionId = uniqueName('legacy-backoff');
    const jobId = uniqueName('legacy');
    const overloaded = new ModelError('HTTP 529 overloaded_error', { status: 529, retryable: true });
    const model = scriptedModel([turn('Working', { error: overloaded })]);
    const errors: Error[] = [];
    const worker = createAgentWorker({ connection: bullConnection(redis.url), queueName, prefix, store, createAgent: (session) => createAgent({ model, ...session.agentOptions }) });
    worker.worker.on('error', (error) => errors.push(error));
    try {
      const delayed = new Promise<void>((resolve) => under.events.on('delayed', (event) => event.jobId === jobId && resolve()));
      await under.queue.queue.add('run', { kind: 'run', sessionId, prompt: 'Go' }, { jobId, attempts: 3, backoff: { type: 'agent-harness', delay: 60_000 } });
      await delayed;
      const job = (await Job.fromId(under.queue.queue, jobId))!;
      expect(job.attemptsMade).toBe(1);
      expect(job.delay).toBe(60_000);
      expect(errors).toEqual([]);
      await job.remove();
    } finally {
      await worker.close();
    }
  });
});
