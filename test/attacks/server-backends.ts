import type { SessionStore } from 'agent-harness';
import { postgresSessionStore } from 'agent-harness/postgres';
import { redisSessionStore } from 'agent-harness/redis';
import { dropSchema, postgres, testPool, testSchema } from '../postgres/postgres-test-database.js';
import { dropPrefix, redis, testClient, testPrefix } from '../redis/redis-test-server.js';

/** A namespace of its own on a server (a schema, a key prefix), with as many independent store clients as asked. */
export interface OpenedServerBackend {
  /** The schema (PostgreSQL) or key prefix (Redis), for a second process to open the same data. */
  namespace: string;
  /** A store on its own client (its own pool or connection): a second process's view of the same data. */
  stores: () => SessionStore;
  /** Drops the namespace and ends every client. */
  cleanup: () => Promise<void>;
}

/** A server the attacks run the stores against, when it is reachable (see `serverUnderTest`). */
export interface ServerBackend {
  kind: 'postgres' | 'redis';
  name: string;
  url: string;
  reachable: boolean;
  open: () => OpenedServerBackend;
}

export const serverBackends: ServerBackend[] = [
  {
    kind: 'postgres',
    name: 'postgres (two pools)',
    url: postgres.url,
    reachable: postgres.reachable,
    open: () => {
      const schema = testSchema();
      const pools: ReturnType<typeof testPool>[] = [];
      return {
        namespace: schema,
        stores: () => {
          const pool = testPool(2);
          pools.push(pool);
          return postgresSessionStore({ pool, schema });
        },
        cleanup: async () => {
          if (pools[0]) await dropSchema(pools[0], schema);
          await Promise.all(pools.map((pool) => pool.end()));
        },
      };
    },
  },
  {
    kind: 'redis',
    name: 'redis (two clients)',
    url: redis.url,
    reachable: redis.reachable,
    open: () => {
      const prefix = testPrefix();
      const clients: ReturnType<typeof testClient>[] = [];
      return {
        namespace: prefix,
        stores: () => {
          const client = testClient();
          clients.push(client);
          return redisSessionStore({ client, keyPrefix: prefix });
        },
        cleanup: async () => {
          if (clients[0]) await dropPrefix(clients[0], prefix);
          await Promise.all(clients.map((client) => client.quit()));
        },
      };
    },
  },
];
