import { assertSessionId } from '../session/assert-session-id.js';
import { checkLeaseArguments, checkLeaseObject } from '../session/lease-rules.js';
import type { SessionLeases } from '../session/session-store.js';
import { runScript, type RedisClient } from './redis-client.js';
import type { RedisKeys } from './redis-keys.js';
import { onSessionKeys } from './redis-session-damage.js';
import { ACQUIRE_SCRIPT, RELEASE_SCRIPT, RENEW_SCRIPT } from './redis-scripts.js';

/** What the Redis store lends its leases. */
export interface RedisSessionLeasesContext {
  client: RedisClient;
  keys: RedisKeys;
  /** Resolves once the key layout is checked. */
  ready: () => Promise<void>;
  /** The host's clock reading, or '' for the server's. */
  clock: () => number | '';
}

/** Leases in the session's hash, each change one script: Redis runs them one at a time. */
export function redisSessionLeases(context: RedisSessionLeasesContext): SessionLeases {
  const { client, keys, ready, clock } = context;
  return {
    async acquire(sessionId, options) {
      assertSessionId(sessionId);
      checkLeaseArguments('redisSessionStore.leases.acquire', options, true);
      await ready();
      const result = (await onSessionKeys(client, keys, sessionId, () => runScript(client, ACQUIRE_SCRIPT, [keys.session(sessionId)], [options.holder, options.ttlMs, clock()]))) as [number, number] | null;
      return result ? { sessionId, holder: options.holder, fencingToken: Number(result[0]), expiresAt: Number(result[1]) } : undefined;
    },
    async renew(lease, options) {
      checkLeaseObject('redisSessionStore.leases.renew', lease);
      checkLeaseArguments('redisSessionStore.leases.renew', options, false);
      await ready();
      const expiresAt = await onSessionKeys(client, keys, lease.sessionId, () => runScript(client, RENEW_SCRIPT, [keys.session(lease.sessionId)], [lease.holder, lease.fencingToken, options.ttlMs, clock()]));
      return expiresAt === null ? undefined : { sessionId: lease.sessionId, holder: lease.holder, fencingToken: lease.fencingToken, expiresAt: Number(expiresAt) };
    },
    async release(lease) {
      checkLeaseObject('redisSessionStore.leases.release', lease);
      await ready();
      await onSessionKeys(client, keys, lease.sessionId, () => runScript(client, RELEASE_SCRIPT, [keys.session(lease.sessionId)], [lease.fencingToken, clock()]));
    },
  };
}
