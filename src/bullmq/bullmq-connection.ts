import type { ConnectionOptions } from 'bullmq';

/** The Redis connection BullMQ uses: ioredis options (`{ host, port }`) or an ioredis instance. */
export type AgentQueueConnection = ConnectionOptions;

/** Options the queue and the worker share. */
export interface AgentQueueLocation {
  /**
   * BullMQ's Redis connection: ioredis options such as `{ host: '127.0.0.1', port: 6379 }`, or an
   * ioredis instance (BullMQ needs `maxRetriesPerRequest: null` on a worker's).
   */
  connection: AgentQueueConnection;
  /**
   * The queue's name; the queue and its workers must agree on it.
   * @default 'agent-harness'
   */
  queueName?: string;
  /**
   * BullMQ's key prefix in Redis (separate it from the session store's keys, if Redis is also the store).
   * @default 'bull'
   */
  prefix?: string;
}
