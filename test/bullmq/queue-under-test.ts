import { QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { createAgentQueue, type AgentQueue } from 'agent-harness/bullmq';
import { redis } from '../redis/redis-test-server.js';
import { uniqueName } from '../server-under-test.js';
import { bullConnection, dropPrefix } from './fleet-stores.js';

/** A queue of its own for one describe block, with its events and a Redis client; read them inside tests. */
export interface QueueUnderTest {
  readonly queue: AgentQueue;
  readonly events: QueueEvents;
  readonly admin: Redis;
  readonly queueName: string;
  readonly prefix: string;
}

/**
 * Registers the `beforeAll` that opens a queue (names unique to the run, from `label`) and the
 * `afterAll` that closes it and drops its keys. Call inside a `describe` skipped when Redis is
 * unreachable.
 */
export function useQueueUnderTest(label: string): QueueUnderTest {
  const prefix = uniqueName(`ah-${label}`);
  const queueName = uniqueName(label);
  let queue: AgentQueue | undefined;
  let events: QueueEvents | undefined;
  let admin: Redis | undefined;
  beforeAll(async () => {
    queue = createAgentQueue({ connection: bullConnection(redis.url), queueName, prefix });
    events = new QueueEvents(queueName, { connection: bullConnection(redis.url), prefix });
    await events.waitUntilReady();
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    await events?.close();
    await queue?.close();
    if (admin) await dropPrefix(admin, prefix);
    await admin?.quit();
  });
  const opened = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`useQueueUnderTest(${label}): the ${name} is read before beforeAll opened it`);
    return value;
  };
  return {
    get queue() {
      return opened(queue, 'queue');
    },
    get events() {
      return opened(events, 'queue events');
    },
    get admin() {
      return opened(admin, 'Redis client');
    },
    queueName,
    prefix,
  };
}
