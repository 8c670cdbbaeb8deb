import { Cluster, Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { takesBuffers, type RedisClient } from '../../src/redis/redis-client.js';

// No server needed: the clients are made without connecting.
describe('takesBuffers', () => {
  it('is true for ioredis itself, a Redis and a Cluster', () => {
    const redis = new Redis({ lazyConnect: true });
    const cluster = new Cluster([{ host: '127.0.0.1', port: 1 }], { lazyConnect: true });
    try {
      expect(takesBuffers(redis)).toBe(true);
      expect(takesBuffers(cluster)).toBe(true);
    } finally {
      redis.disconnect();
      cluster.disconnect();
    }
  });

  it('is false for a client the host wrapped, a look-alike, or ioredis with its call replaced', () => {
    const redis = new Redis({ lazyConnect: true });
    try {
      const call: RedisClient['call'] = (command, ...args) => redis.call(command, ...args);
      expect(takesBuffers({ call })).toBe(false);
      expect(takesBuffers({ isCluster: false, sendCommand: () => undefined, call } as RedisClient)).toBe(false);
      expect(takesBuffers({ isCluster: false, sendCommand: () => undefined, callBuffer: () => undefined, call } as RedisClient)).toBe(false);
      expect(takesBuffers(Object.assign(Object.create(redis) as Redis, { call }))).toBe(false);
      // A test double of a class of its own: call on its prototype, but no callBuffer.
      class Double {
        isCluster = false;
        sendCommand(): void {}
        call(command: string, ...args: Array<string | number>): Promise<unknown> {
          return redis.call(command, ...args);
        }
      }
      expect(takesBuffers(new Double())).toBe(false);
      // A Proxy that forwards everything is ioredis underneath.
      expect(takesBuffers(new Proxy(redis, {}))).toBe(true);
    } finally {
      redis.disconnect();
    }
  });
});
