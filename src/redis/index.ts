/**
 * `agent-harness/redis`: a session store and a plan store in Redis, over the host's ioredis
 * client (`ioredis` is an optional peer dependency; this entry never imports it).
 * @packageDocumentation
 */
export { redisSessionStore, type RedisSessionStoreOptions } from './redis-session-store.js';
export { redisPlanStore, type RedisPlanStoreOptions } from './redis-plan-store.js';
export { REDIS_LAYOUT_VERSION, type RedisStoreOptions } from './redis-layout.js';
export type { RedisClient } from './redis-client.js';
