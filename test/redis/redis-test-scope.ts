import type { Redis } from 'ioredis';
import { afterAll, afterEach } from 'vitest';
import { dropPrefix, redis, testClient, testPrefix } from './redis-test-server.js';

/** The key prefixes and clients of one test file, cleaned up by the hooks {@link redisTestScope} registers. */
export interface RedisTestScope {
  /** A client for editing keys by hand and dropping the prefixes (undefined when the server is not reachable: the tests skip). */
  admin: Redis | undefined;
  /** A fresh key prefix, its keys dropped after the test. */
  prefix(): string;
  /** A client of its own on the test server, quit after the test. */
  client(): Redis;
}

/**
 * The set-up of a Redis test file: after each test the clients it opened are quit and the keys of
 * the prefixes it named dropped, after all of them the admin client quits. Call it at the top level
 * of the file (it registers `afterEach` and `afterAll`); with no server reachable it opens nothing.
 */
export function redisTestScope(): RedisTestScope {
  const admin = redis.reachable ? testClient() : undefined;
  const clients: Redis[] = [];
  const prefixes: string[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.quit()));
    for (const prefix of prefixes.splice(0)) await dropPrefix(admin!, prefix);
  });
  afterAll(() => admin?.quit());
  return {
    admin,
    prefix: () => {
      const prefix = testPrefix();
      prefixes.push(prefix);
      return prefix;
    },
    client: () => {
      const client = testClient();
      clients.push(client);
      return client;
    },
  };
}
