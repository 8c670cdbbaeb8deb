// A worker that stalled past its lease starts no more tool calls of the job: another worker may
// hold the session by then. The lease runs on a manual clock (the store's and the worker's), so
// nothing here waits for it to run out.
import { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type SessionLease } from 'agent-harness';
import { createAgentWorker, type AgentJobResult } from 'agent-harness/bullmq';
import { manualClock, scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';
import { redis } from '../redis/redis-test-server.js';
import { uniqueName } from '../server-under-test.js';
import { bullConnection } from './fleet-stores.js';
import { storedResults } from '../helpers.js';
import { useQueueUnderTest } from './queue-under-test.js';

const TTL = 30_000;

describe.skipIf(!redis.reachable)('createAgentWorker: the lease is checked before each tool call starts', () => {
  const under = useQueueUnderTest('lease');
  const { queueName, prefix } = under;

  it('a call decided before the worker stalled past its lease does not start once another worker took the session over; the job is put back and finishes without it', { timeout: 60_000 }, async () => {
    const clock = manualClock();
    const store = memorySessionStore({ now: clock.now });
    const sessionId = uniqueName('stalled');
    const executed: string[] = [];
    let other: SessionLease | undefined;
    const step = (name: string) =>
      defineTool({
        name,
        description: name,
        inputSchema: z.object({}),
        readOnly: true,
        concurrencySafe: false,
        execute: async () => {
          executed.push(name);
          if (name === 'first' && !other) {
            // The worker stalls (a long pause) past its lease inside this call; another worker takes the session.
            clock.advance(TTL);
            other = await store.leases!.acquire(sessionId, { holder: 'another-worker', ttlMs: TTL });
          }
          return `${name} done`;
        },
      });
    const model = scriptedModel([turn(toolCall('first', {}, 'c1'), toolCall('second', {}, 'c2')), 'Done.']);
    const worker = createAgentWorker({
      connection: bullConnection(redis.url),
      queueName,
      prefix,
      store,
      now: clock.now,
      leaseTtlMs: TTL,
      heldRetryMs: 50,
      createAgent: (session) => createAgent({ model, tools: [step('first'), step('second')], ...session.agentOptions }),
    });
    try {
      const { jobId } = await under.queue.enqueueRun({ sessionId, prompt: 'Go' });
      const delayed = new Promise<void>((resolve) => under.events.on('delayed', (event) => event.jobId === jobId && resolve()));
      await delayed;
      // Put back, not run beside the worker that holds the session now.
      expect(other).toBeDefined();
      expect(executed).toEqual(['first']);
      await store.leases!.release(other!);
      const job = await Job.fromId(under.queue.queue, jobId);
      const result = (await job!.waitUntilFinished(under.events, 30_000)) as AgentJobResult;
      expect(result.status).toBe('completed');
      // The second call never ran, in this worker or after.
      expect(executed).toEqual(['first']);
      const results = storedResults(await loadEntries(store, sessionId));
      expect(String(results.get('c2')?.content)).toMatch(/interrupted/);
      // Put back without counting an attempt: only the one that finished counts.
      expect((await Job.fromId(under.queue.queue, jobId))!.attemptsMade).toBe(1);
    } finally {
      await worker.close();
    }
  });

  it('a worker whose clock stepped back (a wall clock set back by NTP) while it stalled past its lease starts no more tool calls of the job', { timeout: 60_000 }, async () => {
    // The store's clock and the worker's are apart: the worker was given a wall clock (`Date.now`), not a monotonic one.
    const storeClock = manualClock();
    const workerClock = manualClock();
    const store = memorySessionStore({ now: storeClock.now });
    const sessionId = uniqueName('stepped-back');
    const executed: string[] = [];
    let other: SessionLease | undefined;
    const step = (name: string) =>
      defineTool({
        name,
        description: name,
        inputSchema: z.object({}),
        readOnly: true,
        concurrencySafe: false,
        execute: async () => {
          executed.push(name);
          if (name === 'first' && !other) {
            // The worker stalls past its lease, and its clock is set back a minute meanwhile: by
            // its own readings, less time has passed than when the lease was taken.
            storeClock.advance(TTL);
            workerClock.advance(TTL - 60_000);
            other = await store.leases!.acquire(sessionId, { holder: 'another-worker', ttlMs: TTL });
          }
          return `${name} done`;
        },
      });
    const model = scriptedModel([turn(toolCall('first', {}, 'c1'), toolCall('second', {}, 'c2')), 'Done.']);
    const worker = createAgentWorker({
      connection: bullConnection(redis.url),
      queueName,
      prefix,
      store,
      now: workerClock.now,
      leaseTtlMs: TTL,
      heldRetryMs: 50,
      createAgent: (session) => createAgent({ model, tools: [step('first'), step('second')], ...session.agentOptions }),
    });
    try {
      const { jobId } = await under.queue.enqueueRun({ sessionId, prompt: 'Go' });
      const delayed = new Promise<void>((resolve) => under.events.on('delayed', (event) => event.jobId === jobId && resolve()));
      await delayed;
      expect(other).toBeDefined();
      expect(executed).toEqual(['first']);
      await store.leases!.release(other!);
      const result = (await (await Job.fromId(under.queue.queue, jobId))!.waitUntilFinished(under.events, 30_000)) as AgentJobResult;
      expect(result.status).toBe('completed');
      expect(executed).toEqual(['first']);
    } finally {
      await worker.close();
    }
  });

  it('names the clock option when it is not a function', () => {
    expect(() => createAgentWorker({ connection: bullConnection(redis.url), store: memorySessionStore(), createAgent: () => createAgent({ model: scriptedModel([]) }), now: 5 as never })).toThrow(/`now` must be a function/);
  });
});
