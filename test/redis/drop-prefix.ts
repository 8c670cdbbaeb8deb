import type { Redis } from 'ioredis';

/** Deletes every key under a prefix (a test's store, or its BullMQ queue). No side effects on import: worker processes load it too. */
export async function dropPrefix(client: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await client.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
}
