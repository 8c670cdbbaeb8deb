import type { BigIntStats, Dirent } from 'node:fs';
import { readdir, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConfigurationError } from '../errors/configuration-error.js';
import { SessionConflictError } from '../errors/session-conflict-error.js';
import { SessionStoreCorruptError } from '../errors/session-store-corrupt-error.js';
import { unlessUnsupported } from '../session/unless-unsupported.js';
import { checkAppend } from '../session/check-append.js';
import { compareSessionIds } from '../session/compare-session-ids.js';
import { isReplay } from '../session/is-replay.js';
import { entryIdClashError } from '../session/entry-id-clash.js';
import { fenceError } from '../session/lease-rules.js';
import { foldPendingApprovals, pendingApprovalsIn, type PendingApprovalsState } from '../session/pending-approvals.js';
import { entryJson } from '../session/entry-json.js';
import type { PendingSession, SessionStore, SessionStoreWarning } from '../session/session-store.js';
import { assertOwnSessionFile, isOwnSessionFile } from './session-file/assert-own-session-file.js';
import { fileSessionLeases } from './session-file/file-session-leases.js';
import { readLeaseFile, writeLeaseFile } from './session-file/lease-file.js';
import { takeSessionLock, withOperationLock } from './session-file/operation-lock.js';
import { accepts, checkOptions, isBoolean, isFunction, isNonEmptyString, required, type OptionsSpec } from '../options/index.js';
import { readSessionFileBatches } from './session-file/read-session-file.js';
import { batchedEntries } from '../session/entry-batches.js';
import { REMEMBER_MIN_SIZE, rememberedFromRead, SessionFileWriter, TranscriptCount } from './session-file/session-file-writer.js';
import { jsonLinesBytes } from './session-file/json-lines-bytes.js';
import { MAX_REMEMBERED_IDS, remembersSessionFile, rememberSessionFile, takeRememberedSessionFile } from './session-file/remembered-session-files.js';
import { sessionFileTarget } from './session-file/session-file-target.js';
import { FoldedTranscripts } from './session-file/folded-transcripts.js';
import { SESSION_FILE_EXTENSION, sessionIdProblem } from './session-file/session-id.js';
import { releaseSessionLock } from './session-file/session-lock.js';
import { closeWhenCollected } from './session-file/close-when-collected.js';
import type { ReadAt } from './session-file/prefetched-reads.js';

/** Options of {@link fileSessionStore}. */
export interface FileSessionStoreOptions {
  /**
   * The directory transcripts are written to, one `<sessionId>.jsonl` file per session (with a
   * `<sessionId>.jsonl.lock` while a writer holds it, and a `<sessionId>.jsonl.lease` once a
   * lease was taken). Created on the first write. There is no default, so nothing lands in a
   * home directory unless the host points there.
   */
  dir: string;
  /**
   * Flush every append (and lease change) to the disk (`fsync`) before it resolves, so it
   * survives a power loss, not only a crash of the process. Costs a disk flush per append.
   * @default false
   */
  fsync?: boolean;
  /**
   * Use lock files: an unfenced writer holds its session's lock from its first append until
   * `close`, so a second live writer (another store instance or process) is refused with a
   * `SessionLockedError` instead of interleaving lines; fenced appends and lease changes hold it
   * for one operation. A lock left by a dead process on this host is taken over. Turn off only
   * when the file system cannot hold lock files and the host guarantees a single writer; leases
   * need it.
   * @default true
   */
  lock?: boolean;
  /**
   * How long a fenced append or a lease change waits for another one on the same session (which
   * holds the lock for one operation) before giving up with `SessionLockedError`, in ms.
   * @default 10000
   */
  lockWaitMs?: number;
  /**
   * The clock leases run on, in epoch milliseconds. Tests pass a manual clock.
   * @default Date.now
   */
  now?: () => number;
  /**
   * Receives load warnings (skipped lines) when `load` is called without its own `onWarning`,
   * and those of `listPending()`.
   * @default none: warnings are dropped
   */
  onWarning?: (warning: SessionStoreWarning) => void;
}

const FILE_SESSION_STORE_OPTIONS: OptionsSpec<FileSessionStoreOptions> = {
  dir: required(isNonEmptyString),
  fsync: isBoolean,
  lock: isBoolean,
  onWarning: isFunction,
  lockWaitMs: accepts('a number of milliseconds, 0 or more', (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0),
  now: isFunction,
};

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

const ignore = (): void => undefined;

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

/**
 * The pending approvals of a session's transcript, folded from the file from its last checkpoint
 * on as a resume reads it (a checkpoint starts the fold over; a transcript under 256 KiB is read
 * whole), so a long session that changed is not read whole again; undefined for a session
 * a newer agent-harness wrote (left to the builds that read it) or a damaged one (an edited entry,
 * a FIFO or a directory in place of its transcript), passed over with a warning.
 */
function foldTranscript(file: string, sessionId: string, onWarning: (warning: SessionStoreWarning) => void): Promise<PendingApprovalsState | undefined> {
  return unlessUnsupported(
    (async () => {
      let pending = foldPendingApprovals(undefined, []);
      for await (const batch of readSessionFileBatches({ file, sessionId, onWarning, fromCheckpoint: {} })) pending = foldPendingApprovals(pending, batch);
      return pending;
    })(),
    (error) => {
      if (SessionStoreCorruptError.isInstance(error)) onWarning({ sessionId, message: `Passed over session "${sessionId}" in listPending(): ${error.message}` });
    },
  );
}

/**
 * A session store backed by a directory of append-only JSONL files, one per session: each entry
 * is one line, written in one write per `append`. After a crash, a torn last line is skipped with
 * a warning on load and the next append starts on a fresh line; an entry with an unknown
 * `$schemaVersion` fails the load. Appends are compare-and-append under the session's lock file.
 * Without leases, one writer per session: the first append takes the lock until
 * `close(sessionId)`, `delete`, or process exit. With leases (`store.leases`, a lease file per
 * session), workers on this host take turns: a fenced append holds the lock for that append only,
 * after checking the token against the lease file. `listPending()` reads the transcripts that
 * changed since the store's last call (see docs/stores.md).
 * @throws ConfigurationError when `dir` is missing, and (from its methods) for a session id that
 * is not a plain file name (a path separator, `..`, a leading dot, other characters than letters,
 * digits, `.`, `_`, `-`) or is longer than `MAX_SESSION_ID_BYTES` (200).
 * @example
 * const store = fileSessionStore({ dir: path.join(process.cwd(), '.sessions') });
 * const agent = createAgent({ model, store });
 */
export function fileSessionStore(options: FileSessionStoreOptions): SessionStore {
  checkOptions<FileSessionStoreOptions>(options, FILE_SESSION_STORE_OPTIONS, { owner: 'fileSessionStore', usage: 'fileSessionStore({ dir: "./.sessions" })' });
  const dir = resolve(options.dir);
  const fsync = options.fsync ?? false;
  const lock = options.lock ?? true;
  const lockWaitMs = options.lockWaitMs ?? 10_000;
  const now = options.now ?? Date.now;
  const writers = new Map<string, SessionFileWriter>();
  /** Sessions whose lock this store holds until `close` (its unfenced writer's). */
  const writerLocks = new Set<string>();
  /** Per session, the end of the chain of queued work; appends, lease changes, close and delete run one at a time. */
  const tails = new Map<string, Promise<void>>();
  const targetOf = (sessionId: string) => sessionFileTarget(dir, sessionId);
  /** What `listPending()` folded of each transcript, while its file is unchanged. */
  const folded = new FoldedTranscripts();

  const enqueue = <T>(sessionId: string, task: () => Promise<T>): Promise<T> => {
    const result = (tails.get(sessionId) ?? Promise.resolve()).then(task);
    const tail = result.then(ignore, ignore);
    tails.set(sessionId, tail);
    void tail.then(() => {
      if (tails.get(sessionId) === tail) tails.delete(sessionId);
    });
    return result;
  };

  /** Runs `task` as the session's only writer: under this store's writer lock, or an operation lock. */
  const exclusive = async <T>(sessionId: string, task: () => Promise<T>): Promise<T> => {
    if (!lock || writerLocks.has(sessionId)) return task();
    return withOperationLock(targetOf(sessionId), lockWaitMs, task);
  };

  const closeWriter = async (sessionId: string): Promise<void> => {
    const writer = writers.get(sessionId);
    const { file, lockFile } = targetOf(sessionId);
    writers.delete(sessionId);
    try {
      const state = await writer?.remember().catch(() => undefined);
      if (state !== undefined) rememberSessionFile(file, state);
      await writer?.close();
    } finally {
      if (writerLocks.delete(sessionId)) await releaseSessionLock(lockFile);
    }
  };

  /** The session's writer, its revision current (nobody else can write while the caller holds the lock). */
  const currentWriter = async (sessionId: string): Promise<SessionFileWriter> => {
    const open = writers.get(sessionId);
    if (open !== undefined) {
      if (await open.refresh()) return open;
      // Deleted or replaced under our handle: never append to a file nobody can see.
      writers.delete(sessionId);
      await open.close();
    }
    const { file } = targetOf(sessionId);
    const writer = await SessionFileWriter.open({ sessionId, file, fsync }, takeRememberedSessionFile(file));
    writers.set(sessionId, writer);
    return writer;
  };

  const list = async (): Promise<string[]> => {
    let names: Dirent[];
    try {
      names = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      throw error;
    }
    const sessionIds: string[] = [];
    for (const name of names) {
      if (!name.name.endsWith(SESSION_FILE_EXTENSION)) continue;
      const sessionId = name.name.slice(0, -SESSION_FILE_EXTENSION.length);
      if (sessionIdProblem(sessionId) !== undefined) continue;
      // A link to another session's transcript is that session (listed under its own name): load,
      // append and delete refuse the link's name, so listing it would offer a session nobody can open.
      if (name.isSymbolicLink() && !(await isOwnSessionFile(join(dir, name.name)))) {
        options.onWarning?.({ sessionId, message: `Passed over "${name.name}" in list(): it is a link to another session's transcript, not a session of its own.` });
        continue;
      }
      sessionIds.push(sessionId);
    }
    return sessionIds.sort(compareSessionIds);
  };

  const leases = lock ? fileSessionLeases({ targetOf, exclusive: (sessionId, task) => enqueue(sessionId, () => exclusive(sessionId, task)), now, fsync }) : undefined;

  const store: SessionStore = {
    async append(sessionId, entries, appendOptions) {
      const target = targetOf(sessionId);
      const { expectedRevision, fencingToken, revision, previousId, lastId } = checkAppend('fileSessionStore', sessionId, entries, appendOptions);
      if (fencingToken !== undefined && !lock) {
        throw new ConfigurationError('fileSessionStore({ lock: false }) has no leases, so it cannot check a fencingToken: turn lock files on to use leases.');
      }
      // Serialized now, so a later change to the entries by the caller is not written.
      const lines = entries.map((entry, index) => entryJson('fileSessionStore', sessionId, entry, index));
      // Nothing to store: no lock taken, nothing checked.
      if (lines.length === 0) return;
      const data = jsonLinesBytes(lines);
      const write = async () => {
        const writer = await currentWriter(sessionId);
        // A retry of an append whose reply was lost: stored already, whatever the lease says now.
        if (writer.revision >= revision && isReplay(await writer.storedJson(expectedRevision, revision), lines)) return;
        if (fencingToken !== undefined) {
          const lost = fenceError(sessionId, await readLeaseFile(target.leaseFile, sessionId), fencingToken, now());
          if (lost) throw lost;
        }
        // Under the lock nobody else writes, so the check and the write are one step.
        if (writer.revision !== expectedRevision) throw new SessionConflictError({ sessionId, expectedRevision, actualRevision: writer.revision });
        // The same revision of another history: the session was deleted and written again.
        if (previousId !== undefined && writer.lastId !== undefined && writer.lastId !== previousId) {
          throw new SessionConflictError({ sessionId, expectedRevision, actualRevision: writer.revision });
        }
        // An id the session holds for another entry: no load could tell the two apart.
        const clash = await writer.idClash(entries, expectedRevision);
        if (clash !== undefined) throw entryIdClashError('fileSessionStore', sessionId, clash);
        await writer.append(data, revision, lastId, entries);
      };
      await enqueue(sessionId, async () => {
        if (fencingToken === undefined && lock && !writerLocks.has(sessionId)) {
          // Another session's transcript (a name that differs only in case, a link) is refused before
          // its lock is taken: on a case-insensitive file system that lock is the other session's.
          await assertOwnSessionFile(target.file, sessionId);
          await takeSessionLock(target, 'writer', lockWaitMs);
          writerLocks.add(sessionId);
          try {
            await exclusive(sessionId, write);
          } catch (error) {
            // Refused as another session's transcript (the file appeared since the check, a link
            // that pointed nowhere): nothing of this store's is in the file, so the lock goes at
            // once, not at close(), with the writer.
            if (ConfigurationError.isInstance(error)) await closeWriter(sessionId);
            throw error;
          }
          return;
        }
        await exclusive(sessionId, write);
      });
    },

    load(sessionId, loadOptions) {
      return batchedEntries(async function* () {
        const { file } = targetOf(sessionId);
        // Appends this store has queued for the session land first.
        await tails.get(sessionId);
        const fromCheckpoint = loadOptions?.fromCheckpoint;
        // A load that reads the whole file (or from a checkpoint, counting the lines before it) counts
        // it as the session's next writer would, so that writer (in any store of the process) does
        // not read it all again (when the file is unchanged).
        // (Past the ids a process keeps, it stops collecting them: a viewer's load of a huge one builds no map.)
        const count = new TranscriptCount(MAX_REMEMBERED_IDS);
        const onReadWhole = async (handle: ReadAt, stat: BigIntStats) => {
          const state = await rememberedFromRead(handle, stat, count);
          if (state !== undefined) rememberSessionFile(file, state);
        };
        // From a checkpoint: the entries before it counted from their lines' beginnings (not parsed).
        const onCountedBefore = (entries: ReadonlyArray<{ id?: unknown; seq?: unknown }>) => count.add(entries);
        // Not when the process remembers this very file already (a writer of this process closed it,
        // or a load counted it): the count would be the same. Nor for a file too small to be
        // remembered (`rememberedFromRead`): nothing would keep the count.
        let counting = true;
        const wantsCount = (stat: BigIntStats) => (counting = stat.size >= REMEMBER_MIN_SIZE && !remembersSessionFile(file, stat));
        for await (const batch of readSessionFileBatches({ file, sessionId, onWarning: loadOptions?.onWarning ?? options.onWarning, onReadWhole, wantsCount, ...(fromCheckpoint ? { fromCheckpoint, onCountedBefore } : {}) })) {
          if (counting) count.add(batch);
          yield batch;
        }
      });
    },

    list,

    async delete(sessionId) {
      const target = targetOf(sessionId);
      await enqueue(sessionId, async () => {
        // Nothing was ever stored here: no directory to create for a lock.
        if (!writers.has(sessionId) && !(await exists(dir))) return;
        // Never pull the file from under another live writer: the lock is taken first.
        await exclusive(sessionId, async () => {
          // Never another session's transcript (a name that differs only in case, a link).
          await assertOwnSessionFile(target.file, sessionId);
          await unlink(target.file).catch((error: unknown) => {
            if (errorCode(error) !== 'ENOENT') throw error;
          });
          // The lease ends with the session; its token stays used, so tokens never repeat.
          const lease = lock ? await readLeaseFile(target.leaseFile, sessionId).catch(() => undefined) : undefined;
          if (lease !== undefined && lease.expiresAt > now()) await writeLeaseFile(target.leaseFile, sessionId, { ...lease, expiresAt: now() }, fsync);
        });
        await closeWriter(sessionId);
        // Nothing of the deleted file is worth keeping.
        takeRememberedSessionFile(target.file);
        folded.forget(sessionId);
      });
    },

    async close(sessionId) {
      targetOf(sessionId);
      await enqueue(sessionId, () => closeWriter(sessionId));
    },

    ...(leases ? { leases } : {}),

    async listPending() {
      const waiting: PendingSession[] = [];
      const warn = (warning: SessionStoreWarning) => options.onWarning?.(warning);
      for (const sessionId of await list()) {
        await tails.get(sessionId);
        const { file } = targetOf(sessionId);
        // Read only when the file changed since this store last folded it.
        const known = await folded.lookUp(sessionId, file, warn);
        // A name that opens another session's transcript (a link) is listed under that one's name only.
        if (!known.kept && !(await isOwnSessionFile(file))) {
          warn({ sessionId, message: `Passed over session "${sessionId}" in listPending(): its transcript is another session's file (a link).` });
          continue;
        }
        const pending = known.kept ? known.pending : await folded.fold(sessionId, known.status, warn, (onWarning) => foldTranscript(file, sessionId, onWarning), Date.now());
        const approvals = pending === undefined ? [] : pendingApprovalsIn(pending);
        if (approvals.length > 0) waiting.push({ sessionId, approvals });
      }
      return waiting;
    },
  };
  // Dropped without close(): its writers are closed and their locks let go once it is collected.
  closeWhenCollected(store, () => {
    for (const sessionId of new Set([...writers.keys(), ...writerLocks])) enqueue(sessionId, () => closeWriter(sessionId)).catch(ignore);
  });
  return store;
}
