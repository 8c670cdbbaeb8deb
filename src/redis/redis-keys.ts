import { ConfigurationError } from '../errors/configuration-error.js';

/** The prefix of every key unless told otherwise. */
export const DEFAULT_REDIS_KEY_PREFIX = 'agent-harness:';

/** The stores' keys under one prefix (see docs/stores.md for the layout). */
export interface RedisKeys {
  /** STRING: the key layout version. */
  layout: string;
  /** SET: ids of sessions with entries. */
  sessions: string;
  /** SET: ids of sessions with pending approvals. */
  waiting: string;
  /** STRING: the pending-approvals rule the `waiting` set was last rebuilt under. */
  waitingRule: string;
  /** HASH: plan name → text. */
  plans: string;
  /** HASH: revision, pending, pendingRule, leaseHolder, leaseToken, leaseExpiresAt. */
  session: (sessionId: string) => string;
  /** LIST: the session's entries as JSON, index = seq − 1. */
  entries: (sessionId: string) => string;
  /** HASH: entry id → `<seq> <digest of its content>` (or `<seq> @<SHA-1 of the element>`, filled in for an older session) of the first entry with that id. */
  ids: (sessionId: string) => string;
  /** LIST: `<seq> <id>` of each entry after the first whose beginning holds `"kind":"checkpoint"`, in order (where a resume may start reading). */
  checkpoints: (sessionId: string) => string;
}

/**
 * The keys under `prefix`.
 * @throws ConfigurationError for a prefix that is not a non-empty string.
 */
export function redisKeys(prefix: unknown): RedisKeys {
  if (typeof prefix !== 'string' || prefix.length === 0) {
    throw new ConfigurationError(`Invalid Redis key prefix ${JSON.stringify(prefix)}: pass a non-empty string such as "${DEFAULT_REDIS_KEY_PREFIX}" (one per application or test run).`);
  }
  return {
    layout: `${prefix}layout`,
    sessions: `${prefix}sessions`,
    waiting: `${prefix}waiting`,
    waitingRule: `${prefix}waiting-rule`,
    plans: `${prefix}plans`,
    session: (sessionId) => `${prefix}session:${sessionId}`,
    entries: (sessionId) => `${prefix}entries:${sessionId}`,
    ids: (sessionId) => `${prefix}ids:${sessionId}`,
    checkpoints: (sessionId) => `${prefix}checkpoints:${sessionId}`,
  };
}
