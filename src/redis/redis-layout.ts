import { anything, checkOptions, isNonEmptyString, type OptionsSpec } from '../options/index.js';
import { UnsupportedSchemaVersionError } from '../errors/unsupported-schema-version-error.js';
import type { RedisClient } from './redis-client.js';
import { redisKeys, type RedisKeys } from './redis-keys.js';

/** The key layout version this build writes. */
export const REDIS_LAYOUT_VERSION = 1;

/** Options shared by the Redis stores. */
export interface RedisStoreOptions {
  /** The host's ioredis client (`new Redis(url)`); the host closes it. */
  client: RedisClient;
  /**
   * The prefix of every key. Give each application (or test run) its own; on Redis Cluster put
   * a hash tag in it (e.g. `{agent-harness}:`) so all keys land in one slot, as scripts need.
   * @default 'agent-harness:'
   */
  keyPrefix?: string;
}

/** The keys and a once-only check of the layout version (set on first use). */
const REDIS_STORE_OPTIONS: OptionsSpec<Record<string, unknown>> = { client: anything, keyPrefix: isNonEmptyString };

/** Checks a Redis store's options strictly: a misspelled option (`prefix`) is an error, not a silent default. */
export function checkRedisStoreOptions(options: RedisStoreOptions, storeName: string, extra: OptionsSpec<Record<string, unknown>> = {}): void {
  checkOptions<Record<string, unknown>>(options as unknown as Record<string, unknown>, { ...REDIS_STORE_OPTIONS, ...extra }, { owner: storeName, usage: `${storeName}({ client, keyPrefix: 'my-app:' })` });
}

export function layoutSetup(options: RedisStoreOptions, prefix: string): { keys: RedisKeys; ready: () => Promise<void> } {
  const keys = redisKeys(prefix);
  let pending: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    pending ??= (async () => {
      await options.client.call('SET', keys.layout, String(REDIS_LAYOUT_VERSION), 'NX');
      const found = await options.client.call('GET', keys.layout);
      if (String(found) !== String(REDIS_LAYOUT_VERSION)) {
        throw new UnsupportedSchemaVersionError(`the Redis keys under "${prefix}" (key ${keys.layout})`, Number(found), [REDIS_LAYOUT_VERSION]);
      }
    })().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
  return { keys, ready };
}
