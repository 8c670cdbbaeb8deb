import { readdir, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConfigurationError } from '../errors/configuration-error.js';
import { SessionConflictError } from '../errors/session-conflict-error.js';
import { entrySeq } from '../state/entry-seq.js';
import type { SessionStore, SessionStoreWarning } from '../session/session-store.js';
import { readSessionFile } from './session-file/read-session-file.js';
import { SessionFileWriter } from './session-file/session-file-writer.js';
import { assertSessionId, SESSION_FILE_EXTENSION, sessionIdProblem } from './session-file/session-id.js';
import { inspectSessionLock, removeStaleLock, sessionLockedError, type SessionLockTarget } from './session-file/session-lock.js';

/** Options of {@link fileSessionStore}. */
export interface FileSessionStoreOptions {
  /**
   * The directory transcripts are written to, one `<sessionId>.jsonl` file per session (and a
   * `<sessionId>.jsonl.lock` while a writer has it open). Created on the first append. There is
   * no default, so nothing lands in a home directory unless the host points there.
   */
  dir: string;
  /**
   * Flush every append to the disk (`fsync`) before `append` resolves, so a stored entry survives
   * a power loss, not only a crash of the process. Costs a disk flush per append.
   * @default false
   */
  fsync?: boolean;
  /**
   * Take an exclusive lock file on a session's first append, so a second live writer (another
   * store instance or another process) is refused with a `SessionLockedError` instead of
   * interleaving lines. A lock left by a dead process on this host is taken over. Turn off only
   * when the file system cannot hold lock files and the host guarantees a single writer.
   * @default true
   */
  lock?: boolean;
  /**
   * Receives load warnings (skipped lines) when `load` is called without its own `onWarning`.
   * @default none: warnings are dropped
   */
  onWarning?: (warning: SessionStoreWarning) => void;
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

const ignore = (): void => undefined;

/**
 * A session store backed by a directory of append-only JSONL files, one per session: each entry
 * is one line. Appends to a session are serialized and written through one open handle (one
 * write per `append`). After a crash, a torn last line is skipped with a warning on load and the
 * next append starts on a fresh line; an entry with an unknown `$schemaVersion` fails the load.
 * One writer per session: the first append takes a lock file, released by `close(sessionId)`,
 * by `delete`, or on process exit.
 * @throws ConfigurationError when `dir` is missing, and (from its methods) for a session id that
 * is not a plain file name (a path separator, `..`, a leading dot, other characters than letters,
 * digits, `.`, `_`, `-`).
 * @example
 * const store = fileSessionStore({ dir: path.join(process.cwd(), '.sessions') });
 * const agent = createAgent({ model, store });
 */
export function fileSessionStore(options: FileSessionStoreOptions): SessionStore {
  if (typeof options?.dir !== 'string' || options.dir.length === 0) {
    throw new ConfigurationError('fileSessionStore needs `dir`, the directory to keep transcripts in, e.g. fileSessionStore({ dir: "./.sessions" }).');
  }
  const dir = resolve(options.dir);
  const fsync = options.fsync ?? false;
  const lock = options.lock ?? true;
  const writers = new Map<string, SessionFileWriter>();
  /** Per session, the end of the chain of queued writes; appends, close and delete run one at a time. */
  const tails = new Map<string, Promise<void>>();

  const targetOf = (sessionId: string): SessionLockTarget => {
    assertSessionId(sessionId);
    const file = join(dir, `${sessionId}${SESSION_FILE_EXTENSION}`);
    return { sessionId, file, lockFile: `${file}.lock` };
  };

  const enqueue = <T>(sessionId: string, task: () => Promise<T>): Promise<T> => {
    const result = (tails.get(sessionId) ?? Promise.resolve()).then(task);
    const tail = result.then(ignore, ignore);
    tails.set(sessionId, tail);
    void tail.then(() => {
      if (tails.get(sessionId) === tail) tails.delete(sessionId);
    });
    return result;
  };

  const closeWriter = async (sessionId: string): Promise<void> => {
    const writer = writers.get(sessionId);
    if (writer === undefined) return;
    writers.delete(sessionId);
    await writer.close();
  };

  return {
    async append(sessionId, entries, appendOptions) {
      const target = targetOf(sessionId);
      const expectedRevision = appendOptions?.expectedRevision;
      if (!Number.isInteger(expectedRevision) || expectedRevision! < 0) {
        throw new ConfigurationError(`fileSessionStore.append needs options.expectedRevision, the revision the writer last saw (0 for a new session), got ${JSON.stringify(expectedRevision)}.`);
      }
      // Serialized now, so a later change to the entries by the caller is not written.
      const text = entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
      // Nothing to store: no lock taken, nothing checked.
      if (text.length === 0) return;
      const next = entries.reduce((previous, entry) => entrySeq(entry, previous), expectedRevision!);
      await enqueue(sessionId, async () => {
        let writer = writers.get(sessionId);
        if (writer === undefined) {
          writer = await SessionFileWriter.open({ ...target, fsync, lock });
          writers.set(sessionId, writer);
        } else if (!lock) {
          await writer.readRevision();
        }
        // Under the lock nobody else writes, so the check and the write are one step.
        if (writer.revision !== expectedRevision) {
          throw new SessionConflictError({ sessionId, expectedRevision: expectedRevision!, actualRevision: writer.revision });
        }
        try {
          await writer.append(text);
        } catch (error) {
          // Part of the text may be on disk: count again before the next append.
          await writer.readRevision().catch(() => undefined);
          throw error;
        }
        writer.revision = next;
      });
    },

    async *load(sessionId, loadOptions) {
      const { file } = targetOf(sessionId);
      // Appends this store has queued for the session land first.
      await tails.get(sessionId);
      yield* readSessionFile({ file, sessionId, onWarning: loadOptions?.onWarning ?? options.onWarning });
    },

    async list() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return [];
        throw error;
      }
      return names
        .filter((name) => name.endsWith(SESSION_FILE_EXTENSION))
        .map((name) => name.slice(0, -SESSION_FILE_EXTENSION.length))
        .filter((sessionId) => sessionIdProblem(sessionId) === undefined)
        .sort();
    },

    async delete(sessionId) {
      const target = targetOf(sessionId);
      await enqueue(sessionId, async () => {
        const ours = writers.has(sessionId);
        const state = !ours && lock ? await inspectSessionLock(target.lockFile) : undefined;
        // Never pull the file from under another live writer.
        if (state?.state === 'held') throw sessionLockedError(target, state);
        // The file goes first, the lock after: nobody can start writing the file we are removing.
        await unlink(target.file).catch((error: unknown) => {
          if (errorCode(error) !== 'ENOENT') throw error;
        });
        if (ours) await closeWriter(sessionId);
        else if (state?.state === 'stale') await removeStaleLock(target.lockFile, state.raw);
      });
    },

    async close(sessionId) {
      targetOf(sessionId);
      await enqueue(sessionId, () => closeWriter(sessionId));
    },
  };
}
