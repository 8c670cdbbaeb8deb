import { ConfigurationError } from '../errors/configuration-error.js';
import { isFunction } from '../options/index.js';
import { LeaseLostError } from '../errors/lease-lost-error.js';
import { SessionConflictError } from '../errors/session-conflict-error.js';
import { SessionStoreCorruptError } from '../errors/session-store-corrupt-error.js';
import { assertSessionId } from '../session/assert-session-id.js';
import { checkAppend } from '../session/check-append.js';
import { entryIdClashError } from '../session/entry-id-clash.js';
import { entryDigest } from './entry-digest.js';
import { compareSessionIds } from '../session/compare-session-ids.js';
import { foldPendingApprovals, PENDING_APPROVALS_RULE, pendingApprovalsIn, type PendingApprovalsState } from '../session/pending-approvals.js';
import { entryJson } from '../session/entry-json.js';
import { unlessUnsupported } from '../session/unless-unsupported.js';
import { parseEntryText } from '../session/parse-entry-text.js';
import { unreadableTailError } from '../session/unreadable-tail-error.js';
import { isWaiting, pendingFromSaved, savedPendingText, type SavedPendingApprovals } from '../session/saved-pending-approvals.js';
import type { PendingSession, SessionStore } from '../session/session-store.js';
import type { SessionEntry } from '../state/entries.js';
import { PendingBases } from '../session/pending-bases.js';
import { loadRedisEntryBatches } from './load-redis-entries.js';
import { batchedEntries, entriesOf } from '../session/entry-batches.js';
import { runScript, takesBuffers, type ScriptArgument } from './redis-client.js';
import { onSessionKeys } from './redis-session-damage.js';
import { DEFAULT_REDIS_KEY_PREFIX } from './redis-keys.js';
import { checkRedisStoreOptions, layoutSetup, type RedisStoreOptions } from './redis-layout.js';
import { APPEND_SCRIPT, DELETE_SCRIPT, ELEMENT_SCRIPT, RANGE_AT_REVISION_SCRIPT, SAVE_PENDING_SCRIPT } from './redis-scripts.js';
import { redisSessionLeases } from './redis-session-leases.js';

/** Options of {@link redisSessionStore}. */
export interface RedisSessionStoreOptions extends RedisStoreOptions {
  /**
   * The clock leases run on, in epoch milliseconds. Tests pass a manual clock.
   * @default the Redis server's clock (TIME), so every worker reads the same time
   */
  now?: () => number;
}

/** Entries read at a time when telling a damaged tail from another writer's entries. */
const TAIL_CHUNK = 100;

/**
 * Entries of at least this many UTF-16 units together go to an ioredis client as bytes: joined
 * into one command string they may reach V8's large-object space (128 KiB, 64 Ki units of text
 * outside Latin-1), with room for the rest of the command.
 */
const LONG_APPEND_CHARS = 32 * 1024;

function totalLength(lines: readonly string[]): number {
  let total = 0;
  for (const line of lines) total += line.length;
  return total;
}

/**
 * A session store in Redis: per session a hash (revision, folded pending approvals, lease) and a
 * list of entries; a set of session ids and a set of sessions waiting for approval. Appends,
 * deletes and lease changes are Lua scripts, which Redis runs one at a time: the revision and
 * fencing checks and the writes are one atomic step. Keys are documented in docs/stores.md.
 * Durability is Redis's: configure AOF (`appendonly yes`) if a transcript must survive a restart.
 * @throws ConfigurationError for a missing client or an empty key prefix.
 * @example
 * const client = new Redis(process.env.REDIS_URL);
 * const store = redisSessionStore({ client });
 * const agent = createAgent({ model, store });
 */
export function redisSessionStore(options: RedisSessionStoreOptions): SessionStore {
  assertClient(options, 'redisSessionStore');
  checkRedisStoreOptions(options, 'redisSessionStore', { now: isFunction });
  const { client } = options;
  const { keys, ready } = layoutSetup(options, options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX);
  const clock = (): number | '' => options.now?.() ?? '';
  /** Long appended entries go to the client as UTF-8 bytes, not strings (see takesBuffers). */
  const bytesOk = takesBuffers(client);
  /** The pending approvals at a revision this store wrote or read: the next append folds onto it. */
  const folded = new PendingBases();

  /** A session's entries one by one, for folding its pending approvals. */
  const load = (sessionId: string) => entriesOf(loadRedisEntryBatches({ client, keys, sessionId }));
  /** The session's revision and pending approvals as saved. */
  const readSaved = async (sessionId: string): Promise<SavedPendingApprovals> => {
    const [revision, pending, rule] = (await onSessionKeys(client, keys, sessionId, () => client.call('HMGET', keys.session(sessionId), 'revision', 'pending', 'pendingRule'))) as Array<string | null>;
    return { revision: Number(revision ?? 0), pending: pending ?? null, rule: Number(rule ?? 0) };
  };

  /** Reads a session's pending approvals, saving them back when they had to be refolded. */
  const pendingOf = async (sessionId: string): Promise<PendingApprovalsState> => {
    const saved = await readSaved(sessionId);
    const { state, refolded } = await pendingFromSaved(saved, () => load(sessionId));
    // Saved only if nobody appended meanwhile (an append saves its own fold).
    if (refolded) {
      const args = [sessionId, saved.revision, savedPendingText(state), PENDING_APPROVALS_RULE, isWaiting(state) ? '1' : '0'];
      await onSessionKeys(client, keys, sessionId, () => runScript(client, SAVE_PENDING_SCRIPT, [keys.session(sessionId), keys.waiting], args));
    }
    return state;
  };

  /** {@link pendingOf}, or undefined for a session this build cannot read (a newer version wrote it): listed by the builds that can. */
  const readablePendingOf = (sessionId: string): Promise<PendingApprovalsState | undefined> => unlessUnsupported(pendingOf(sessionId));

  const append: SessionStore['append'] = async (sessionId, entries, appendOptions) => {
    assertSessionId(sessionId);
    const { expectedRevision, fencingToken, revision, previousId, lastId } = checkAppend('redisSessionStore', sessionId, entries, appendOptions);
    // Serialized now, so a later change to the entries by the caller is not written; the id first,
    // so the next append can tell the entry it follows by its beginning (see IS_OTHER_ENTRY).
    const lines = entries.map((entry, index) => entryJson('redisSessionStore', sessionId, idFirst(entry), index));
    if (lines.length === 0) return;
    // Long entries as bytes to ioredis itself (see takesBuffers), made once for every attempt
    // below; short ones as strings, which ioredis writes for less (a chat answer's two entries as
    // bytes took about 10% more of a run).
    const sentLines: ScriptArgument[] = bytesOk && totalLength(lines) >= LONG_APPEND_CHARS ? lines.map((line) => Buffer.from(line, 'utf8')) : lines;
    await ready();
    let basis = folded.get(sessionId);
    // Folded at this revision of the history the writer saw (not of one deleted since).
    if (basis?.revision !== expectedRevision || previousId === undefined || basis.lastId !== previousId) {
      const saved = await readSaved(sessionId);
      // At another revision there is nothing to fold onto and the script writes nothing; it still
      // tells a replay of stored entries, a lost lease and a conflict apart.
      basis = saved.revision === expectedRevision ? { revision: expectedRevision, lastId: undefined, state: (await pendingFromSaved(saved, () => load(sessionId))).state } : undefined;
    }
    const state = basis && foldPendingApprovals(basis.state, entries);
    const sessionKeys = [keys.session(sessionId), keys.entries(sessionId), keys.sessions, keys.waiting, keys.ids(sessionId), keys.checkpoints(sessionId)];
    const head = [
      sessionId,
      expectedRevision,
      revision,
      fencingToken ?? '',
      clock(),
      state ? savedPendingText(state) : '',
      PENDING_APPROVALS_RULE,
      state && isWaiting(state) ? '1' : '0',
      previousId ?? '',
      previousId === undefined ? '' : `{"id":${JSON.stringify(previousId)},`,
      JSON.stringify(entries.map((entry) => entry.id)),
      JSON.stringify(entries.map(entryDigest)),
    ];
    // Digests of stored entries whose ids the script backfilled (it cannot compute them): asked
    // for one at a time, each bound to the SHA-1 of the element it was computed from.
    const verified: Record<string, [number, string, string]> = {};
    let result: [string, ...Array<string | number | null>];
    for (let attempt = 0; ; attempt += 1) {
      const known = Object.keys(verified).length > 0 ? JSON.stringify(verified) : '';
      result = (await onSessionKeys(client, keys, sessionId, () => runScript(client, APPEND_SCRIPT, sessionKeys, [...head, known, ...sentLines]))) as typeof result;
      if (result[0] !== 'verify') break;
      const [, id, seq] = result;
      if (attempt > entries.length + 2) throw changingElementError(sessionId, Number(seq));
      verified[String(id)] = await storedDigest(sessionId, Number(seq));
    }
    if (result[0] === 'ok' && state) folded.keep(sessionId, { revision, lastId, state });
    else folded.delete(sessionId);
    if (result[0] === 'ok') return;
    if (result[0] === 'clash') {
      const [, id, storedSeq, seq] = result;
      throw entryIdClashError('redisSessionStore', sessionId, { id: String(id), storedSeq: Number(storedSeq), seq: Number(seq) });
    }
    if (result[0] === 'lease-lost') {
      const [, holder, token, expiresAt, now] = result;
      throw new LeaseLostError({
        sessionId,
        fencingToken: fencingToken!,
        currentLease: token === null ? undefined : { holder: String(holder ?? ''), fencingToken: Number(token), expiresAt: Number(expiresAt ?? 0) },
        now: Number(now),
      });
    }
    const actualRevision = Number(result[1]);
    if (result[0] === 'corrupt') {
      const length = Number(result[2]);
      throw new SessionStoreCorruptError({
        sessionId,
        location: `Redis key ${keys.entries(sessionId)}`,
        problem: `holds ${length} entries, while the session's revision (field "revision" of ${keys.session(sessionId)}) is ${actualRevision}: entries appended to it would not get their seq`,
        repair: `Nothing was written. Restore the missing entries, or make the revision the number of entries the list holds (HSET ${keys.session(sessionId)} revision ${length}; HDEL ${keys.session(sessionId)} pending) to go on with them; store.delete(${JSON.stringify(sessionId)}) discards the session.`,
      });
    }
    if (actualRevision > expectedRevision && (await onlyUnreadableAfter(sessionId, expectedRevision, actualRevision))) {
      const entriesKey = keys.entries(sessionId);
      const sessionKey = keys.session(sessionId);
      throw unreadableTailError({
        sessionId,
        expectedRevision,
        revision: actualRevision,
        location: `Redis key ${entriesKey}`,
        cutBack: `${expectedRevision === 0 ? `DEL ${entriesKey}` : `LTRIM ${entriesKey} 0 ${expectedRevision - 1}`}; HSET ${sessionKey} revision ${expectedRevision}; HDEL ${sessionKey} pending`,
      });
    }
    // Back at the expected revision since it was read (deleted and written again): not a history the writer saw.
    throw new SessionConflictError({ sessionId, expectedRevision, ...(state === undefined && actualRevision === expectedRevision ? {} : { actualRevision }) });
  };

  /** The seq, SHA-1 and content digest of the session's stored entry `seq` (see APPEND_SCRIPT's 'verify'). */
  const storedDigest = async (sessionId: string, seq: number): Promise<[number, string, string]> => {
    const element = (await onSessionKeys(client, keys, sessionId, () => runScript(client, ELEMENT_SCRIPT, [keys.entries(sessionId)], [seq - 1]))) as [string, string] | null;
    if (element === null) return [seq, '', ''];
    const value = parseEntryText(element[1]);
    // Not an entry to this reader: no digest an appended entry can have (a clash, not a copy).
    return [seq, element[0], value === undefined ? 'unreadable' : entryDigest(value as SessionEntry)];
  };

  /** An element that changed each time the store read it for its digest: another program writes the list. */
  const changingElementError = (sessionId: string, seq: number): SessionStoreCorruptError =>
    new SessionStoreCorruptError({
      sessionId,
      location: `entry ${seq} of the Redis key ${keys.entries(sessionId)}`,
      problem: 'changed every time the store read it to check an appended entry\'s id against it: something besides the store writes the list',
      repair: 'Nothing was written. Stop whatever else writes the key (give it its own key prefix), then append again.',
    });

  /**
   * True when none of the session's entries after `expectedRevision` is one a load can read, and
   * the session is still at `revision`: a writer that loaded it cannot get past `expectedRevision`.
   */
  const onlyUnreadableAfter = async (sessionId: string, expectedRevision: number, revision: number): Promise<boolean> => {
    for (let from = expectedRevision; from < revision; from += TAIL_CHUNK) {
      const range = [revision, from, Math.min(from + TAIL_CHUNK, revision) - 1];
      const items = (await onSessionKeys(client, keys, sessionId, () => runScript(client, RANGE_AT_REVISION_SCRIPT, [keys.session(sessionId), keys.entries(sessionId)], range))) as string[] | null;
      // Written meanwhile: a conflict like any other.
      if (items === null) return false;
      if (items.some((text) => parseEntryText(text) !== undefined)) return false;
    }
    return true;
  };

  return {
    append,

    load(sessionId, loadOptions) {
      return batchedEntries(async function* () {
        assertSessionId(sessionId);
        await ready();
        const { onWarning, fromCheckpoint } = loadOptions ?? {};
        yield* loadRedisEntryBatches({ client, keys, sessionId, onHead: (head) => folded.keepLoaded(sessionId, head), ...(onWarning ? { onWarning } : {}), ...(fromCheckpoint ? { fromCheckpoint } : {}) });
      });
    },

    async list() {
      await ready();
      return ((await client.call('SMEMBERS', keys.sessions)) as string[]).sort(compareSessionIds);
    },

    async delete(sessionId) {
      assertSessionId(sessionId);
      await ready();
      folded.delete(sessionId);
      const sessionKeys = [keys.session(sessionId), keys.entries(sessionId), keys.sessions, keys.waiting, keys.ids(sessionId), keys.checkpoints(sessionId)];
      await onSessionKeys(client, keys, sessionId, () => runScript(client, DELETE_SCRIPT, sessionKeys, [sessionId, clock()]));
    },

    async close(sessionId) {
      assertSessionId(sessionId);
      folded.delete(sessionId);
    },

    leases: redisSessionLeases({ client, keys, ready, clock }),

    async listPending() {
      await ready();
      // The waiting set was built under another rule (an upgrade): any session may wait now.
      if (Number(await client.call('GET', keys.waitingRule)) !== PENDING_APPROVALS_RULE) {
        for (const sessionId of (await client.call('SMEMBERS', keys.sessions)) as string[]) await readablePendingOf(sessionId);
        await client.call('SET', keys.waitingRule, PENDING_APPROVALS_RULE);
      }
      const ids = ((await client.call('SMEMBERS', keys.waiting)) as string[]).sort(compareSessionIds);
      // Sent together: the client pipelines them on its connection.
      const states = await Promise.all(ids.map((sessionId) => readablePendingOf(sessionId)));
      return ids.flatMap((sessionId, index): PendingSession[] => {
        const state = states[index];
        const approvals = state === undefined ? [] : pendingApprovalsIn(state);
        return approvals.length > 0 ? [{ sessionId, approvals }] : [];
      });
    },
  };
}

/** @throws ConfigurationError when `options.client` is not an ioredis client. */
export function assertClient(options: RedisStoreOptions, storeName: string): void {
  if (typeof options?.client?.call !== 'function') {
    throw new ConfigurationError(`${storeName} needs options.client, an ioredis client (e.g. new Redis(process.env.REDIS_URL)), got ${typeof options?.client}.`);
  }
}

/** The entry with its `id` as the first key (the same entry once parsed). */
function idFirst(entry: SessionEntry): SessionEntry {
  const { id, ...rest } = entry;
  return { id, ...rest } as SessionEntry;
}
