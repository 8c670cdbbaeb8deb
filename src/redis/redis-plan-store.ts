import { assertPlanName } from '../plan/plan-name.js';
import type { PlanStore } from '../plan/plan-store.js';
import { DEFAULT_REDIS_KEY_PREFIX } from './redis-keys.js';
import { checkRedisStoreOptions, layoutSetup, type RedisStoreOptions } from './redis-layout.js';
import { assertClient } from './redis-session-store.js';

/** Options of {@link redisPlanStore}. */
export type RedisPlanStoreOptions = RedisStoreOptions;

/**
 * A plan store in Redis: one hash, `<prefix>plans`, plan name → text. Names are checked like
 * file names, as in every plan store.
 * @throws ConfigurationError for a missing client or an empty key prefix.
 * @example
 * const planStore = redisPlanStore({ client });
 */
export function redisPlanStore(options: RedisPlanStoreOptions): PlanStore {
  assertClient(options, 'redisPlanStore');
  checkRedisStoreOptions(options, 'redisPlanStore');
  const { client } = options;
  const { keys, ready } = layoutSetup(options, options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX);
  return {
    async read(name) {
      assertPlanName(name);
      await ready();
      const text = await client.call('HGET', keys.plans, name);
      return text === null || text === undefined ? undefined : String(text);
    },
    async write(name, text, writeOptions) {
      assertPlanName(name);
      await ready();
      if (writeOptions?.ifAbsent) return Number(await client.call('HSETNX', keys.plans, name, text)) === 1;
      await client.call('HSET', keys.plans, name, text);
    },
    async exists(name) {
      assertPlanName(name);
      await ready();
      return Number(await client.call('HEXISTS', keys.plans, name)) === 1;
    },
    async list() {
      await ready();
      return ((await client.call('HKEYS', keys.plans)) as string[]).sort();
    },
  };
}
