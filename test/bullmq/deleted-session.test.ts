// Jobs for a session the host deleted (a user removed the conversation): an approval answered
// after the delete runs nothing and brings nothing back, and a run whose session is deleted
// under it does not start again from scratch (its tools would run twice).
import { QueueEvents, Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type SessionStore } from 'agent-harness';
import { createAgentQueue, createAgentWorker, type AgentJobResult, type AgentQueue } from 'agent-harness/bullmq';
import { redisSessionStore } from 'agent-harness/redis';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';
import { redis } from '../redis/redis-test-server.js';
import { uniqueName } from '../server-under-test.js';
import { bullConnection, dropPrefix } from './fleet-stores.js';

describe.skipIf(!redis.reachable)('createAgentWorker: jobs of a deleted session', () => {
  const prefix = uniqueName('ah-deleted');
  const storePrefix = `${uniqueName('ah-deleted-store')}:`;
  const queueName = uniqueName('deleted');
  let queue: AgentQueue;
  let events: QueueEvents;
  let client: Redis;
  let store: SessionStore;

  beforeAll(async () => {
    queue = createAgentQueue({ connection: bullConnection(redis.url), queueName, prefix });
    events = new QueueEvents(queueName, { connection: bullConnection(redis.url), prefix });
    await events.waitUntilReady();
    client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    store = redisSessionStore({ client, keyPrefix: storePrefix });
  });
  afterAll(async () => {
    await events?.close();
    await queue?.close();
    await dropPrefix(client, prefix);
    await dropPrefix(client, storePrefix);
    await client?.quit();
  });

  const finished = async (jobId: string) => (await (await Job.fromId(queue.queue, jobId))!.waitUntilFinished(events, 30_000)) as AgentJobResult;

  it('an approval answered after its session was deleted runs nothing and does not bring the session back', { timeout: 60_000 }, async () => {
    const executed: string[] = [];
    const publish = defineTool({ name: 'publish', description: 'publish', inputSchema: z.object({}), execute: async () => (executed.push('publish'), 'published') });
    const model = scriptedModel([turn(toolCall('publish', {}, 'p1')), 'Done.']);
    const worker = createAgentWorker({ connection: bullConnection(redis.url), queueName, prefix, store, heldRetryMs: 50, createAgent: (session) => createAgent({ model, tools: [publish], ...session.agentOptions }) });
    try {
      const sessionId = uniqueName('gone');
      const parked = await finished((await queue.enqueueRun({ sessionId, prompt: 'Publish it.' })).jobId);
      expect(parked.status).toBe('awaiting-approval');
      await store.delete(sessionId);
      const answered = await finished((await queue.enqueueApproval({ sessionId, approvalId: parked.pendingApprovals[0]!, decision: { behavior: 'allow' } })).jobId);
      expect(answered.status).toBe('approval-not-pending');
      expect(executed).toEqual([]);
      expect(await loadEntries(store, sessionId)).toEqual([]);
      expect(await store.list()).not.toContain(sessionId);
    } finally {
      await worker.close();
    }
  });

  it('a run whose session is deleted in the middle of it does not start again from scratch', { timeout: 60_000 }, async () => {
    const sessionId = uniqueName('deleted-mid-run');
    const executed: string[] = [];
    const first = defineTool({
      name: 'first',
      description: 'first',
      inputSchema: z.object({}),
      readOnly: true,
      execute: async () => {
        executed.push('first');
        // The host deletes the session while the tool runs.
        if (executed.length === 1) await store.delete(sessionId);
        return 'first done';
      },
    });
    // Started again from scratch, the run would call `first` again.
    const model = scriptedModel([turn(toolCall('first', {}, 'f1')), turn(toolCall('first', {}, 'f2')), 'Done.']);
    const worker = createAgentWorker({ connection: bullConnection(redis.url), queueName, prefix, store, heldRetryMs: 50, createAgent: (session) => createAgent({ model, tools: [first], ...session.agentOptions }) });
    try {
      const result = await finished((await queue.enqueueRun({ sessionId, prompt: 'Go.' })).jobId);
      expect(result).toEqual({ sessionId, runId: expect.stringMatching(/^job_/), status: 'session-deleted', pendingApprovals: [] });
      expect(executed).toEqual(['first']);
      // Not brought back: the prompt was not sent again in a new session.
      expect(await loadEntries(store, sessionId)).toEqual([]);
    } finally {
      await worker.close();
    }
  });
});
