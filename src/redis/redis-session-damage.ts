import { SessionStoreCorruptError } from '../errors/session-store-corrupt-error.js';
import type { RedisClient } from './redis-client.js';
import type { RedisKeys } from './redis-keys.js';

/**
 * Lua: `damagedField(hash, list, field…)`, the reply `{'corrupt-field', field, value, length of
 * list}` for the first of the hash's fields that is set but not a count (digits only, at most 15,
 * so a double holds it exactly), else nil. The scripts read `revision`, `leaseToken` and
 * `leaseExpiresAt` as numbers: one edited by hand (`abc`, `-3`, `2.5`) made `tonumber` nil and the
 * script fail with a bare Lua error, or worse, read as another number.
 */
export const DAMAGED_FIELD = `
local function damagedField(hash, list, ...)
  local names = {...}
  local values = redis.call('HMGET', hash, unpack(names))
  for index, name in ipairs(names) do
    local value = values[index]
    if value and not (#value <= 15 and string.match(value, '^%d+$')) then
      return {'corrupt-field', name, value, list and redis.call('LLEN', list) or 0}
    end
  end
  return nil
end
`;

/** Whether a hash field read as a count is one (see {@link DAMAGED_FIELD}); a missing field is 0. */
export function isStoredCount(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && /^\d{1,15}$/.test(value));
}

/** What a session's hash field must be, and the commands that repair it. */
function fieldRepair(keys: RedisKeys, sessionId: string, field: string, length: number): string {
  const hash = keys.session(sessionId);
  if (field === 'revision') {
    return `Nothing was written. Make the revision the number of entries the list ${keys.entries(sessionId)} holds (HSET ${hash} revision ${length}; HDEL ${hash} pending), or restore the session from a backup; store.delete(${JSON.stringify(sessionId)}) discards the session.`;
  }
  if (field === 'leaseToken') {
    return `Nothing was changed. Set it above every token given for the session, so that none comes again, e.g. to the time in epoch milliseconds, and end the lease (HSET ${hash} leaseToken ${Date.now()} leaseExpiresAt 0).`;
  }
  return `Nothing was changed. End the lease (HSET ${hash} leaseExpiresAt 0); its holder's writes are then refused and the next worker takes a new lease.`;
}

/** The error for a session hash field that is not a count: `value` as read, `length` of the entries list. */
export function corruptFieldError(keys: RedisKeys, sessionId: string, field: string, value: unknown, length: number): SessionStoreCorruptError {
  return new SessionStoreCorruptError({
    sessionId,
    location: `field ${JSON.stringify(field)} of the Redis key ${keys.session(sessionId)}`,
    problem: `is ${JSON.stringify(String(value).slice(0, 40))}, not a count (digits only): it was edited by hand or written by another program`,
    repair: fieldRepair(keys, sessionId, field, length),
  });
}

const WRONG_TYPE = /WRONGTYPE/;

/**
 * Runs a call on a session's keys, turning damage into SessionStoreCorruptError: a script's
 * `corrupt-field` reply (see {@link DAMAGED_FIELD}), and a key of the session that holds another
 * type than the store keeps there (Redis's WRONGTYPE), named with the type it holds.
 * @throws SessionStoreCorruptError for damaged keys; other failures pass through.
 */
export async function onSessionKeys<T>(client: RedisClient, keys: RedisKeys, sessionId: string, call: () => Promise<T>): Promise<T> {
  let reply: T;
  try {
    reply = await call();
  } catch (error) {
    if (error instanceof Error && WRONG_TYPE.test(error.message)) throw await wrongTypeError(client, keys, sessionId, error);
    throw error;
  }
  if (Array.isArray(reply) && reply[0] === 'corrupt-field') throw corruptFieldError(keys, sessionId, String(reply[1]), reply[2], Number(reply[3] ?? 0));
  return reply;
}

async function wrongTypeError(client: RedisClient, keys: RedisKeys, sessionId: string, cause: Error): Promise<Error> {
  const expected: Array<[string, string]> = [
    [keys.session(sessionId), 'hash'],
    [keys.entries(sessionId), 'list'],
    [keys.ids(sessionId), 'hash'],
    [keys.checkpoints(sessionId), 'list'],
  ];
  for (const [key, type] of expected) {
    const found = String(await client.call('TYPE', key));
    if (found === 'none' || found === type) continue;
    return new SessionStoreCorruptError({
      sessionId,
      location: `the Redis key ${key}`,
      problem: `holds a ${found}, where the store keeps the session's ${key === keys.checkpoints(sessionId) ? 'checkpoints (a list)' : type === 'list' ? 'entries (a list)' : 'fields (a hash)'}: another program wrote it, or its key prefix is shared`,
      repair: `Nothing was written. Give the other program its own key prefix, and restore the key from a backup (or DEL ${key}; store.delete(${JSON.stringify(sessionId)}) discards the session).`,
    });
  }
  return cause;
}
