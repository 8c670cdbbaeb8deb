// The stores and queues the fleet tests run on: PostgreSQL or Redis for sessions, BullMQ on Redis.
import pg from 'pg';
import { Redis } from 'ioredis';
import type { SessionStore } from 'agent-harness';
import { postgresSessionStore } from 'agent-harness/postgres';
import { redisSessionStore } from 'agent-harness/redis';
import { dropPrefix } from '../redis/drop-prefix.js';

export { dropPrefix };

export type StoreKind = 'postgres' | 'redis';

/** Where a fleet's store and queue live; handed to worker processes as environment variables. */
export interface FleetPlace {
  kind: StoreKind;
  pgUrl: string;
  redisUrl: string;
  /** The PostgreSQL schema, or the Redis key prefix, of the session store. */
  namespace: string;
  queueName: string;
  bullPrefix: string;
}

export const placeToEnv = (place: FleetPlace): Record<string, string> => ({
  FLEET_STORE: place.kind,
  FLEET_PG_URL: place.pgUrl,
  FLEET_REDIS_URL: place.redisUrl,
  FLEET_NAMESPACE: place.namespace,
  FLEET_QUEUE: place.queueName,
  FLEET_BULL_PREFIX: place.bullPrefix,
});

export const placeFromEnv = (env: NodeJS.ProcessEnv): FleetPlace => ({
  kind: env.FLEET_STORE as StoreKind,
  pgUrl: env.FLEET_PG_URL!,
  redisUrl: env.FLEET_REDIS_URL!,
  namespace: env.FLEET_NAMESPACE!,
  queueName: env.FLEET_QUEUE!,
  bullPrefix: env.FLEET_BULL_PREFIX!,
});

/** BullMQ's connection options for a Redis URL. */
export function bullConnection(url: string): { host: string; port: number; db?: number } {
  const parsed = new URL(url);
  const db = Number(parsed.pathname.slice(1));
  return { host: parsed.hostname, port: Number(parsed.port || 6379), ...(db ? { db } : {}) };
}

/** Opens the session store of a place; `close` ends its connections (and, with `drop`, removes its data). */
export async function openFleetStore(place: FleetPlace): Promise<{ store: SessionStore; close: (drop?: boolean) => Promise<void> }> {
  if (place.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: place.pgUrl, max: 4 });
    const store = postgresSessionStore({ pool, schema: place.namespace });
    return {
      store,
      close: async (drop = false) => {
        if (drop) await pool.query(`DROP SCHEMA IF EXISTS "${place.namespace}" CASCADE`);
        await pool.end();
      },
    };
  }
  const client = new Redis(place.redisUrl, { maxRetriesPerRequest: 1 });
  const store = redisSessionStore({ client, keyPrefix: place.namespace });
  return {
    store,
    close: async (drop = false) => {
      if (drop) await dropPrefix(client, place.namespace);
      await client.quit();
    },
  };
}
