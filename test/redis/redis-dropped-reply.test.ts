// A Redis connection cut after the server ran an append but before its reply arrived: ioredis
// sends the unanswered command again once it reconnects (autoResendUnfulfilledCommands, on by
// default). The store must still tell the truth: the entries were stored, once.
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { redisSessionStore } from 'agent-harness/redis';
import { loadEntries } from '../../src/session/load-entries.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';
import { startDropProxy, type DropProxy } from '../drop-proxy.js';
import { dropPrefix, redis, testClient, testPrefix } from './redis-test-server.js';

describe.skipIf(!redis.reachable)('redisSessionStore: a reply lost with the connection', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const setup = async (fenced: boolean) => {
    const target = new URL(redis.url);
    const proxy: DropProxy = await startDropProxy({ host: target.hostname, port: Number(target.port || 6379) });
    // The client as a host makes it: ioredis defaults, through the proxy.
    const client = new Redis({ host: proxy.host, port: proxy.port, retryStrategy: () => 10 });
    const admin = testClient();
    const keyPrefix = testPrefix();
    cleanups.push(() => proxy.close(), () => admin.quit(), () => dropPrefix(admin, keyPrefix), async () => client.disconnect());
    const store = redisSessionStore({ client, keyPrefix });
    const make = entryMaker('s');
    const lease = fenced ? await store.leases!.acquire('s', { holder: 'worker', ttlMs: 60_000 }) : undefined;
    const token = lease ? { fencingToken: lease.fencingToken } : {};
    await store.append('s', [make.userText('one')], { expectedRevision: 0, ...token });
    return { proxy, store, make, token };
  };

  it.each([false, true])('an append whose reply was lost, and that the client sent again, is reported stored (fenced: %s)', async (fenced) => {
    const { proxy, store, make, token } = await setup(fenced);
    const second = make.userText('two');
    const dropped = proxy.dropReplyTo('EVALSHA');
    const appended = store.append('s', [second], { expectedRevision: 1, ...token });
    await dropped;
    // Stored once: the store must not call its own write a conflict with another writer.
    await expect(appended).resolves.toBeUndefined();
    expect((await loadEntries(store, 's')).map((entry) => entry.id)).toEqual(['s-entry-1', 's-entry-2']);
    // And the session goes on from there.
    await store.append('s', [make.userText('three')], { expectedRevision: 2, ...token });
    expect((await loadEntries(store, 's')).map((entry) => entry.seq)).toEqual([1, 2, 3]);
  });

  it('a different writer at the same revision is still refused', async () => {
    const { store } = await setup(false);
    await store.append('s', [entryMaker('s', 1).userText('two')], { expectedRevision: 1 });
    const other = { ...entryMaker('s', 1).userText('two, again'), id: 'another-writer' };
    await expect(store.append('s', [other], { expectedRevision: 1 })).rejects.toMatchObject({ code: 'session-conflict' });
  });
});
