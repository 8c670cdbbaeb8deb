// AgentWorker.close({ force, timeoutMs, signal }): a shutdown that does not wait for a job under
// way stops it and hands it back; another worker resumes it, and nothing runs twice.
import { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createAgent, defineTool, memorySessionStore, type SessionStore } from 'agent-harness';
import { createAgentWorker, type AgentJobResult, type AgentWorkerCloseOptions } from 'agent-harness/bullmq';
import { scriptedModel, toolCall, turn, type ScriptedModel } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';
import { redis } from '../redis/redis-test-server.js';
import { uniqueName } from '../server-under-test.js';
import { bullConnection } from './fleet-stores.js';
import { storedResultIds, storedResults } from '../helpers.js';
import { useQueueUnderTest } from './queue-under-test.js';

describe.skipIf(!redis.reachable)('AgentWorker.close: stopping the jobs under way', () => {
  const under = useQueueUnderTest('close');
  const { queueName, prefix } = under;

  /** A session whose first model turn calls `block`, a tool that waits on a promise nothing settles (it ignores its signal). */
  function blockedJob() {
    const store: SessionStore = memorySessionStore();
    const executed: string[] = [];
    let started!: () => void;
    const blocked = new Promise<void>((resolve) => (started = resolve));
    const block = defineTool({
      name: 'block',
      description: 'Waits for ever.',
      inputSchema: z.object({}),
      readOnly: true,
      execute: async ({ toolUseId }) => {
        executed.push(toolUseId);
        started();
        await new Promise<never>(() => undefined);
      },
    });
    const model: ScriptedModel = scriptedModel([turn(toolCall('block', {}, 'c1')), 'Done.']);
    const start = () =>
      createAgentWorker({ connection: bullConnection(redis.url), queueName, prefix, store, heldRetryMs: 50, createAgent: (session) => createAgent({ model, tools: [block], ...session.agentOptions }) });
    return { store, executed, blocked, model, start };
  }

  const closings: Array<[string, (controller: AbortController) => AgentWorkerCloseOptions]> = [
    ['force', () => ({ force: true })],
    ['timeoutMs', () => ({ timeoutMs: 20 })],
    ['signal', (controller) => ({ signal: controller.signal })],
  ];

  it.each(closings)('with %s, stops a tool blocked on a promise, hands the job back without counting an attempt; another worker finishes it and the tool ran once', { timeout: 30_000 }, async (_, closeOptions) => {
    const { store, executed, blocked, model, start } = blockedJob();
    const sessionId = uniqueName('closed');
    const first = start();
    const { jobId } = await under.queue.enqueueRun({ sessionId, prompt: 'Go' });
    await blocked;
    const controller = new AbortController();
    const closed = first.close(closeOptions(controller));
    controller.abort(new Error('shutdown deadline'));
    await closed;
    const handedBack = (await Job.fromId(under.queue.queue, jobId))!;
    expect(['waiting', 'delayed']).toContain(await handedBack.getState());
    expect(handedBack.attemptsMade).toBe(0);

    const second = start();
    try {
      const result = (await handedBack.waitUntilFinished(under.events, 20_000)) as AgentJobResult;
      expect(result.status).toBe('completed');
    } finally {
      await second.close();
    }
    expect(executed).toEqual(['c1']);
    expect(model.requests).toHaveLength(2);
    const entries = await loadEntries(store, sessionId);
    expect([...storedResults(entries)].map(([toolUseId, result]) => [toolUseId, String(result.content)])).toEqual([['c1', expect.stringMatching(/interrupted/i)]]);
    // The prompt reached the session once; the run ended once, on the second worker.
    expect(entries.filter((entry) => entry.kind === 'message' && entry.message.role === 'user' && JSON.stringify(entry.message.content).includes('Go'))).toHaveLength(1);
    expect(entries.filter((entry) => entry.kind === 'run-end').map((entry) => entry.kind === 'run-end' && entry.status)).toEqual(['completed']);
  });

  it('a close() that waits is turned into a forced one by close({ force: true })', { timeout: 30_000 }, async () => {
    const { executed, blocked, start } = blockedJob();
    const first = start();
    const { jobId } = await under.queue.enqueueRun({ sessionId: uniqueName('escalated'), prompt: 'Go' });
    await blocked;
    const waiting = first.close();
    await first.close({ force: true });
    await waiting;
    expect(['waiting', 'delayed']).toContain(await (await Job.fromId(under.queue.queue, jobId))!.getState());
    expect(executed).toEqual(['c1']);
    await under.queue.queue.remove(jobId);
  });

  it('a tool result being stored as the forced close begins is kept: the next worker sees the call ran, and it is not answered as interrupted', { timeout: 30_000 }, async () => {
    const inner = memorySessionStore();
    const executed: string[] = [];
    // The append that stores the tool's result waits on a barrier the test opens.
    let resultWriting!: () => void;
    const writing = new Promise<void>((resolve) => (resultWriting = resolve));
    let openBarrier!: () => void;
    const barrier = new Promise<void>((resolve) => (openBarrier = resolve));
    let released = false;
    const store: SessionStore = {
      append: async (sessionId, entries, options) => {
        if (storedResultIds(entries).size > 0 && executed.length === 1 && !released) {
          resultWriting();
          await barrier;
        }
        return inner.append(sessionId, entries, options);
      },
      load: (sessionId, options) => inner.load(sessionId, options),
      list: () => inner.list(),
      delete: (sessionId) => inner.delete(sessionId),
      leases: {
        ...inner.leases!,
        acquire: (sessionId, options) => inner.leases!.acquire(sessionId, options),
        renew: (lease, options) => inner.leases!.renew(lease, options),
        release: async (lease) => {
          released = true;
          return inner.leases!.release(lease);
        },
      },
    };
    const work = defineTool({
      name: 'work',
      description: 'Does the work once.',
      inputSchema: z.object({}),
      readOnly: true,
      execute: async ({ toolUseId }) => {
        executed.push(toolUseId);
        return 'work done';
      },
    });
    const model = scriptedModel([turn(toolCall('work', {}, 'c1')), 'Done.', 'Done.']);
    const start = () => createAgentWorker({ connection: bullConnection(redis.url), queueName, prefix, store, heldRetryMs: 50, createAgent: (session) => createAgent({ model, tools: [work], ...session.agentOptions }) });
    const sessionId = uniqueName('result-at-close');
    const first = start();
    const { jobId } = await under.queue.enqueueRun({ sessionId, prompt: 'Go' });
    await writing;
    const closed = first.close({ force: true });
    // Let the close run as far as it goes without the write (a released lease, before the fix).
    for (let turnOfLoop = 0; turnOfLoop < 5; turnOfLoop++) await new Promise((resolve) => setImmediate(resolve));
    openBarrier();
    await closed;

    const second = start();
    try {
      const result = (await (await Job.fromId(under.queue.queue, jobId))!.waitUntilFinished(under.events, 20_000)) as AgentJobResult;
      expect(result.status).toBe('completed');
    } finally {
      await second.close();
    }
    expect(executed).toEqual(['c1']);
    const entries = await loadEntries(inner, sessionId);
    expect([...storedResults(entries)].map(([toolUseId, result]) => [toolUseId, String(result.content)])).toEqual([['c1', 'work done']]);
    expect(entries.filter((entry) => entry.kind === 'run-end').map((entry) => entry.kind === 'run-end' && entry.status)).toEqual(['completed']);
  });

  it('when the lease cannot be released, the stopped run still writes nothing more: the job is resumed once the lease runs out, not ended interrupted', { timeout: 30_000 }, async () => {
    let clock = 1_000_000;
    const inner = memorySessionStore({ now: () => clock });
    const store: SessionStore = {
      append: (sessionId, entries, options) => inner.append(sessionId, entries, options),
      load: (sessionId, options) => inner.load(sessionId, options),
      list: () => inner.list(),
      delete: (sessionId) => inner.delete(sessionId),
      leases: {
        ...inner.leases!,
        acquire: (sessionId, options) => inner.leases!.acquire(sessionId, options),
        renew: (lease, options) => inner.leases!.renew(lease, options),
        release: async () => {
          throw new Error('connection reset');
        },
      },
    };
    const executed: string[] = [];
    let started!: () => void;
    const blocked = new Promise<void>((resolve) => (started = resolve));
    const block = defineTool({
      name: 'block',
      description: 'Waits for ever.',
      inputSchema: z.object({}),
      readOnly: true,
      execute: async ({ toolUseId }) => {
        executed.push(toolUseId);
        started();
        await new Promise<never>(() => undefined);
      },
    });
    const model = scriptedModel([turn(toolCall('block', {}, 'c1')), 'Done.']);
    const start = () =>
      createAgentWorker({ connection: bullConnection(redis.url), queueName, prefix, store, leaseTtlMs: 60_000, heldRetryMs: 50, createAgent: (session) => createAgent({ model, tools: [block], ...session.agentOptions }) });
    const sessionId = uniqueName('unreleased');
    const first = start();
    const { jobId } = await under.queue.enqueueRun({ sessionId, prompt: 'Go' });
    await blocked;
    await first.close({ force: true });
    expect((await loadEntries(inner, sessionId)).filter((entry) => entry.kind === 'run-end')).toEqual([]);
    // The lease the first worker could not release runs out by the store's clock.
    clock += 60_001;
    const second = start();
    try {
      const result = (await (await Job.fromId(under.queue.queue, jobId))!.waitUntilFinished(under.events, 20_000)) as AgentJobResult;
      expect(result.status).toBe('completed');
    } finally {
      await second.close();
    }
    expect(executed).toEqual(['c1']);
    const entries = await loadEntries(inner, sessionId);
    expect(entries.filter((entry) => entry.kind === 'run-end').map((entry) => entry.kind === 'run-end' && entry.status)).toEqual(['completed']);
  });

  it('a store that never answers the append under way does not hold the forced close: the job goes back, the lease runs out on its own', { timeout: 30_000 }, async () => {
    const inner = memorySessionStore();
    let hung!: () => void;
    const hanging = new Promise<void>((resolve) => (hung = resolve));
    const store: SessionStore = {
      append: async (sessionId, entries, options) => {
        if (storedResultIds(entries).size > 0) {
          hung();
          await new Promise<never>(() => undefined);
        }
        return inner.append(sessionId, entries, options);
      },
      load: (sessionId, options) => inner.load(sessionId, options),
      list: () => inner.list(),
      delete: (sessionId) => inner.delete(sessionId),
      leases: inner.leases!,
    };
    const work = defineTool({ name: 'work', description: 'Works.', inputSchema: z.object({}), readOnly: true, execute: () => 'done' });
    const worker = createAgentWorker({
      connection: bullConnection(redis.url),
      queueName,
      prefix,
      store,
      createAgent: (session) => createAgent({ model: scriptedModel([turn(toolCall('work', {}, 'c1')), 'Done.']), tools: [work], storeWriteGraceMs: 0, ...session.agentOptions }),
    });
    const { jobId } = await under.queue.enqueueRun({ sessionId: uniqueName('hung-store'), prompt: 'Go' });
    await hanging;
    await worker.close({ force: true });
    const job = (await Job.fromId(under.queue.queue, jobId))!;
    expect(['waiting', 'delayed']).toContain(await job.getState());
    expect(job.attemptsMade).toBe(0);
    await job.remove();
  });

  it('names a bad option and the fix', async () => {
    const { start } = blockedJob();
    const worker = start();
    try {
      expect(() => worker.close({ timeoutMs: -1 })).toThrow(ConfigurationError);
      // Past a timer's limit Node fires the timer after 1 ms: the jobs would be stopped at once.
      expect(() => worker.close({ timeoutMs: 2_147_483_648 })).toThrow(/`timeoutMs` must be an integer of 0 or more, at most 2147483647 \(about 24\.8 days: a timer fires at once past it\), got 2147483648/);
      expect(() => worker.close({ force: 'yes' } as never)).toThrow(/`force`/);
      expect(() => worker.close({ forced: true } as never)).toThrow(/`forced`/);
    } finally {
      await worker.close();
    }
  });
});
