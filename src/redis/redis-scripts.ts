// The stores' Lua scripts. Redis runs a script atomically: nothing else touches the keys between
// its reads and its writes, which makes each of these a compare-and-set. Each first checks the
// hash fields it reads as numbers (DAMAGED_FIELD): one edited by hand is a 'corrupt-field' reply.

import { DAMAGED_FIELD } from './redis-session-damage.js';
import { CHECKPOINT_KIND, KIND_WITHIN } from '../session/pick-checkpoint-start.js';

/** `now`: the host's clock when given (ARGV[i] not empty), else the server's TIME, in epoch ms. */
const CLOCK = `
local function clock(given)
  local now = tonumber(given)
  if now == nil then
    local time = redis.call('TIME')
    now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  end
  return now
end
`;

/**
 * Whether the stored entry `text` is not the one with id `id`. The store writes each entry with its
 * `id` first (`{"id":<JSON>,…}`), so `prefix`, that beginning for `id`, tells it exactly: an entry
 * that begins with another id is another entry, whatever it holds further on (an id quoted in a
 * message or a tool input is not the entry's own). An entry written otherwise (by an earlier
 * version of the store) is read as JSON and its top-level id compared. Unreadable, or without a
 * string id, it tells nothing: not another entry.
 */
const IS_OTHER_ENTRY = `
local function isOtherEntry(text, id, prefix)
  if string.sub(text, 1, #prefix) == prefix then return false end
  if string.sub(text, 1, 6) == '{"id":' then return true end
  local ok, entry = pcall(cjson.decode, text)
  return ok and type(entry) == 'table' and type(entry.id) == 'string' and entry.id ~= id
end
`;

/**
 * The id of the stored entry `text`, or nil when it has none (not JSON, no string id). Found
 * without decoding when the entry begins with an id that needs no escape, as the store writes it.
 */
const ENTRY_ID = `
local function entryId(text)
  local id = string.match(text, '^{"id":"([^"\\\\]*)",')
  if id then return id end
  local ok, entry = pcall(cjson.decode, text)
  if ok and type(entry) == 'table' and type(entry.id) == 'string' then return entry.id end
  return nil
end
`;

/**
 * Compare-and-append. KEYS: session hash, entries list, sessions set, waiting set, ids hash,
 * checkpoints list.
 * ARGV: session id, expected revision, new revision, fencing token or '', clock or '',
 * pending JSON (or '': folded at no revision, write nothing), pending rule, '1' when the session
 * waits for approval (else '0'), the id the
 * writer saw last (the first entry's parentId) or '', the beginning of that entry as the store
 * writes it (`{"id":<JSON>,`), the entries' ids and their content digests (two JSON arrays),
 * the digests the store computed of backfilled entries (JSON `{ id: [seq, sha1, digest] }`, or ''),
 * entries as JSON (each with its id first)…
 * Returns {'ok'} | {'conflict', revision} | {'lease-lost', holder, token, expiresAt, now} |
 * {'clash', id, stored seq, seq} (an entry has the id of a stored one with another digest) |
 * {'verify', id, stored seq} (an entry has the id of a backfilled one: send its digest) |
 * {'corrupt', revision, length} (the entries list does not hold `revision` entries: damaged or
 * restored in part; nothing is written, since entries pushed onto it would not get their seq).
 * An append whose entries are already stored where it would put them, byte for byte, is 'ok'
 * without writing: ioredis sends a command again after a reconnect when its reply was lost with
 * the connection, and that second run must not call the first one's write a conflict.
 * At the expected revision, the entry there must be the one the writer saw last: another one
 * means the session was deleted and written again since (a conflict).
 */
export const APPEND_SCRIPT = `${CLOCK}${IS_OTHER_ENTRY}${ENTRY_ID}${DAMAGED_FIELD}
local damaged = damagedField(KEYS[1], KEYS[2], 'revision')
if not damaged and ARGV[4] ~= '' then damaged = damagedField(KEYS[1], KEYS[2], 'leaseToken', 'leaseExpiresAt') end
if damaged then return damaged end
local revision = tonumber(redis.call('HGET', KEYS[1], 'revision') or '0')
local expected = tonumber(ARGV[2])
local first = 14
local count = #ARGV - first + 1
if revision >= expected + count then
  local stored = redis.call('LRANGE', KEYS[2], expected - revision, expected - revision + count - 1)
  local same = #stored == count
  for index = 1, count do
    if not same then break end
    same = stored[index] == ARGV[first + index - 1]
  end
  if same then return {'ok'} end
end
if ARGV[4] ~= '' then
  local now = clock(ARGV[5])
  local lease = redis.call('HMGET', KEYS[1], 'leaseHolder', 'leaseToken', 'leaseExpiresAt')
  if lease[2] ~= ARGV[4] or tonumber(lease[3] or '0') <= now then
    return {'lease-lost', lease[1] or false, lease[2] or false, lease[3] or false, now}
  end
end
local length = redis.call('LLEN', KEYS[2])
if length ~= revision then return {'corrupt', revision, length} end
-- Read before anything is written: a checkpoints key of another type fails the script here.
redis.call('LLEN', KEYS[6])
if revision ~= expected or ARGV[6] == '' then return {'conflict', revision} end
if ARGV[9] ~= '' and revision > 0 then
  local last = redis.call('LINDEX', KEYS[2], revision - 1)
  if last and isOtherEntry(last, ARGV[9], ARGV[10]) then return {'conflict', revision} end
end
-- The ids hash covers the entries from idsFrom on. Those before it (all of a session written
-- before the hash existed, which has no idsFrom) are added first, once: each id with its seq and
-- '@' and the SHA-1 of its element, since its digest is computed from the JSON by the store (a
-- 'verify' reply asks it for the digest, which counts with the SHA-1 of the element it read).
local ids = cjson.decode(ARGV[11])
local digests = cjson.decode(ARGV[12])
local verified = ARGV[13] ~= '' and cjson.decode(ARGV[13]) or {}
local idsFromField = redis.call('HGET', KEYS[1], 'idsFrom')
local idsFrom = math.min(tonumber(idsFromField) or revision, revision)
for from = 0, idsFrom - 1, 1000 do
  local texts = redis.call('LRANGE', KEYS[2], from, math.min(from + 999, idsFrom - 1))
  for offset, text in ipairs(texts) do
    local id = entryId(text)
    if id then
      local seq = from + offset
      local held = redis.call('HGET', KEYS[5], id)
      local heldSeq = held and tonumber(string.match(held, '^(%d+) '))
      if not heldSeq or heldSeq > seq then redis.call('HSET', KEYS[5], id, seq .. ' @' .. redis.sha1hex(text)) end
    end
  end
end
if idsFromField ~= '0' then redis.call('HSET', KEYS[1], 'idsFrom', 0) end
-- An id held with another digest is another entry's. One held past the revision is of an entry
-- cut off the list (a repair): forgotten.
for index = 1, count do
  local id = ids[index]
  local held = type(id) == 'string' and redis.call('HGET', KEYS[5], id)
  local space = held and string.find(held, ' ', 1, true)
  if space then
    local seq = tonumber(string.sub(held, 1, space - 1))
    local digest = string.sub(held, space + 1)
    if seq == nil or seq > revision then
      redis.call('HDEL', KEYS[5], id)
    else
      if string.sub(digest, 1, 1) == '@' then
        -- The store's digest counts if it was computed from the element as it is now.
        local known = verified[id]
        local text = redis.call('LINDEX', KEYS[2], seq - 1)
        if type(known) ~= 'table' or known[1] ~= seq or not text or redis.sha1hex(text) ~= known[2] then return {'verify', id, seq} end
        digest = known[3]
        redis.call('HSET', KEYS[5], id, seq .. ' ' .. digest)
      end
      if digest ~= digests[index] then return {'clash', id, seq, expected + index} end
    end
  end
end
for from = first, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[2], unpack(ARGV, from, math.min(from + 999, #ARGV)))
end
for index = 1, count do
  if type(ids[index]) == 'string' then redis.call('HSETNX', KEYS[5], ids[index], (expected + index) .. ' ' .. digests[index]) end
end
-- Where a resume may start reading: entries after the first that may be a checkpoint, and the
-- session's size (a resume reads a small session whole).
-- (A size edited into something that is no count starts again from this append: only a hint.)
local bytes = math.floor(tonumber(redis.call('HGET', KEYS[1], 'bytes') or '0') or 0)
for index = 1, count do bytes = bytes + #ARGV[first + index - 1] end
redis.call('HSET', KEYS[1], 'bytes', bytes)
for index = 1, count do
  local seq = expected + index
  if seq > 1 and string.find(string.sub(ARGV[first + index - 1], 1, ${KIND_WITHIN}), '${CHECKPOINT_KIND}', 1, true) then
    redis.call('RPUSH', KEYS[6], seq .. ' ' .. (type(ids[index]) == 'string' and ids[index] or ''))
  end
end
redis.call('HSET', KEYS[1], 'revision', ARGV[3], 'pending', ARGV[6], 'pendingRule', ARGV[7])
if ARGV[8] == '1' then redis.call('SADD', KEYS[4], ARGV[1]) else redis.call('SREM', KEYS[4], ARGV[1]) end
redis.call('SADD', KEYS[3], ARGV[1])
return {'ok'}
`;

/**
 * What a load reads first, together: the session's fields (revision, bytes, pending approvals and
 * the rule that folded them), the length of its entries list, the first 512 bytes of its last
 * element (which begins with the entry's id), and its first ARGV[1] entries up to the revision
 * when the load starts at the first entry: a whole load (ARGV[2] = '1'), or a session under
 * ARGV[3] bytes, which a load from a checkpoint reads whole. KEYS: session hash, entries list.
 */
export const LOAD_HEAD_SCRIPT = `
local fields = redis.call('HMGET', KEYS[1], 'revision', 'bytes', 'pending', 'pendingRule')
local length = redis.call('LLEN', KEYS[2])
local last = false
if length > 0 then last = string.sub(redis.call('LINDEX', KEYS[2], -1), 1, 512) end
local first = false
local revision = tonumber(fields[1] or '0')
local count = tonumber(ARGV[1])
-- A revision edited by hand (a fraction, a word) is refused by the caller: no range is read for it.
if revision and revision > 0 and revision % 1 == 0 and count and count > 0 and (ARGV[2] == '1' or (tonumber(fields[2] or '0') or 0) < tonumber(ARGV[3])) then
  first = redis.call('LRANGE', KEYS[2], 0, math.min(count, revision) - 1)
end
return {fields[1], fields[2], fields[3], fields[4], length, last, first}
`;

/**
 * The SHA-1 and the text of element ARGV[1] of the entries list KEYS[1], or false when there is none.
 */
export const ELEMENT_SCRIPT = `
local text = redis.call('LINDEX', KEYS[1], ARGV[1])
if not text then return false end
return {redis.sha1hex(text), text}
`;

/**
 * The entries from index ARGV[2] to ARGV[3] if the session is still at revision ARGV[1], else
 * false. KEYS: session hash, entries list.
 */
export const RANGE_AT_REVISION_SCRIPT = `${DAMAGED_FIELD}
local damaged = damagedField(KEYS[1], KEYS[2], 'revision')
if damaged then return damaged end
if tonumber(redis.call('HGET', KEYS[1], 'revision') or '0') ~= tonumber(ARGV[1]) then return false end
return redis.call('LRANGE', KEYS[2], ARGV[2], ARGV[3])
`;

/**
 * Deletes a session's entries and ends its lease (the token stays). KEYS: session hash, entries
 * list, sessions set, waiting set, ids hash, checkpoints list. ARGV: session id, clock or ''.
 */
export const DELETE_SCRIPT = `${CLOCK}${DAMAGED_FIELD}
local damaged = damagedField(KEYS[1], KEYS[2], 'leaseToken', 'leaseExpiresAt')
if damaged then return damaged end
redis.call('DEL', KEYS[2], KEYS[5], KEYS[6])
redis.call('HDEL', KEYS[1], 'revision', 'pending', 'pendingRule', 'idsFrom', 'bytes')
redis.call('SREM', KEYS[3], ARGV[1])
redis.call('SREM', KEYS[4], ARGV[1])
local expires = tonumber(redis.call('HGET', KEYS[1], 'leaseExpiresAt') or '0')
local now = clock(ARGV[2])
if expires > now then redis.call('HSET', KEYS[1], 'leaseExpiresAt', now) end
return 1
`;

/**
 * Saves refolded pending approvals if the session is still at the revision they were folded at.
 * KEYS: session hash, waiting set. ARGV: session id, revision, pending JSON, rule, '1' when waiting.
 */
export const SAVE_PENDING_SCRIPT = `${DAMAGED_FIELD}
local damaged = damagedField(KEYS[1], false, 'revision')
if damaged then return damaged end
if tonumber(redis.call('HGET', KEYS[1], 'revision') or '0') ~= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'pending', ARGV[3], 'pendingRule', ARGV[4])
if ARGV[5] == '1' then redis.call('SADD', KEYS[2], ARGV[1]) else redis.call('SREM', KEYS[2], ARGV[1]) end
return 1
`;

/**
 * Takes the lease when it is free, expired or the holder's own. KEYS: session hash.
 * ARGV: holder, ttl ms, clock or ''. Returns {token, expiresAt} or false.
 */
export const ACQUIRE_SCRIPT = `${CLOCK}${DAMAGED_FIELD}
local damaged = damagedField(KEYS[1], false, 'leaseToken', 'leaseExpiresAt')
if damaged then return damaged end
local now = clock(ARGV[3])
local lease = redis.call('HMGET', KEYS[1], 'leaseHolder', 'leaseToken', 'leaseExpiresAt')
if tonumber(lease[3] or '0') > now and lease[1] ~= ARGV[1] then return false end
local token = tonumber(lease[2] or '0') + 1
local expires = now + tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'leaseHolder', ARGV[1], 'leaseToken', token, 'leaseExpiresAt', expires)
return {token, expires}
`;

/** Extends a held, unexpired lease. KEYS: session hash. ARGV: holder, token, ttl ms, clock or ''. Returns expiresAt or false. */
export const RENEW_SCRIPT = `${CLOCK}${DAMAGED_FIELD}
local damaged = damagedField(KEYS[1], false, 'leaseToken', 'leaseExpiresAt')
if damaged then return damaged end
local now = clock(ARGV[4])
local lease = redis.call('HMGET', KEYS[1], 'leaseHolder', 'leaseToken', 'leaseExpiresAt')
if lease[1] ~= ARGV[1] or lease[2] ~= ARGV[2] or tonumber(lease[3] or '0') <= now then return false end
local expires = now + tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'leaseExpiresAt', expires)
return expires
`;

/** Ends a held, unexpired lease now. KEYS: session hash. ARGV: token, clock or ''. */
export const RELEASE_SCRIPT = `${CLOCK}${DAMAGED_FIELD}
local damaged = damagedField(KEYS[1], false, 'leaseToken', 'leaseExpiresAt')
if damaged then return damaged end
local now = clock(ARGV[2])
local lease = redis.call('HMGET', KEYS[1], 'leaseToken', 'leaseExpiresAt')
if lease[1] == ARGV[1] and tonumber(lease[2] or '0') > now then redis.call('HSET', KEYS[1], 'leaseExpiresAt', now) end
return 1
`;
