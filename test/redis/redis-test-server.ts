import { Redis } from 'ioredis';
import { serverUnderTest, uniqueName } from '../server-under-test.js';

/** The server the Redis tests use: `AGENT_HARNESS_REDIS_URL`, else the loopback default. */
export const redis = await serverUnderTest('Redis', 'AGENT_HARNESS_REDIS_URL', 'redis://127.0.0.1:6379', async (url) => {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // The failed connect rejects connect(); without a listener ioredis would also print its
  // "Unhandled error event" for it on every run where Redis is down.
  let failure: Error | undefined;
  client.on('error', (error: Error) => void (failure ??= error));
  try {
    // connect() itself rejects with "Connection is closed."; the error event says why.
    await client.connect().catch((error: unknown) => {
      throw failure ?? error;
    });
    await client.ping();
  } finally {
    client.disconnect();
  }
});

/** A client of the test server; `quit()` it when done. */
export function testClient(): Redis {
  return new Redis(redis.url, { maxRetriesPerRequest: 1 });
}

/** A key prefix no other test run uses. */
export const testPrefix = () => `${uniqueName('ah-test')}:`;

export { dropPrefix } from './drop-prefix.js';
