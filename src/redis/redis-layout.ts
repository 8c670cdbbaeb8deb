import { anything, checkOptions, isNonEmptyString, type OptionsSpec } from '../options/index.js';
import { UnsupportedSchemaVersionError } from '../errors/unsupported-schema-version-error.js';
import type { RedisClient } from './redis-client.js';
import { redisKeys, type RedisKeys } from './redis-keys.js';
import { oncePerKey, type OncePerKey } from '../lazy/once-per-key.js';

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

const REDIS_STORE_OPTIONS: OptionsSpec<Record<string, unknown>> = { client: anything, keyPrefix: isNonEmptyString };

/** Checks a Redis store's options strictly: a misspelled option (`prefix`) is an error, not a silent default. */
export function checkRedisStoreOptions(options: RedisStoreOptions, storeName: string, extra: OptionsSpec<Record<string, unknown>> = {}): void {
  checkOptions<Record<string, unknown>>(options as unknown as Record<string, unknown>, { ...REDIS_STORE_OPTIONS, ...extra }, { owner: storeName, usage: `${storeName}({ client, keyPrefix: 'my-app:' })` });
}

/**
 * Per client, the key prefixes a store of this process found at this build's layout: a later
 * store on the same client and prefix does not check again, as a store kept for the life of the
 * process would not (a host that makes its store per request would otherwise pay two round trips
 * a request).
 */
const readyByClient: OncePerKey<void> = new WeakMap();

/** The keys and a once-only check of the layout version (set on first use), once per client and prefix in a process. */
export function layoutSetup(options: RedisStoreOptions, prefix: string): { keys: RedisKeys; ready: () => Promise<void> } {
  const keys = redisKeys(prefix);
  const client = options.client as object;
  // A refused layout is checked again by the next call.
  const check = async (): Promise<void> => {
    await options.client.call('SET', keys.layout, String(REDIS_LAYOUT_VERSION), 'NX');
    const found = await options.client.call('GET', keys.layout);
    if (String(found) !== String(REDIS_LAYOUT_VERSION)) {
      throw new UnsupportedSchemaVersionError(`the Redis keys under "${prefix}" (key ${keys.layout})`, Number(found), [REDIS_LAYOUT_VERSION]);
    }
  };
  const ready = (): Promise<void> => oncePerKey(readyByClient, client, prefix, check);
  return { keys, ready };
}
