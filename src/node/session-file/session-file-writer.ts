import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { entrySeq } from '../../state/entry-seq.js';
import { readSessionFile } from './read-session-file.js';
import { acquireSessionLock, releaseSessionLock, type SessionLockTarget } from './session-lock.js';

/** Options of {@link SessionFileWriter.open}. */
export interface SessionFileWriterOptions extends SessionLockTarget {
  /** Flush every append to the disk (`fsync`) before it resolves. */
  fsync: boolean;
  /** Take the session's lock file before writing. */
  lock: boolean;
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** Makes a new directory entry durable; not every platform can open a directory, so best effort. */
async function syncDirectory(directory: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch {
    // Windows and some file systems refuse; the file's own data is still synced.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * The one open, append-mode handle of a session file, with its lock. Not safe for concurrent
 * calls: the store serializes them per session.
 */
export class SessionFileWriter {
  private readonly handle: FileHandle;
  private readonly options: SessionFileWriterOptions;
  /** Whether the file may end without a newline (opened existing, or a write failed midway). */
  private checkLineEnd = true;
  /** The file was created by this writer and its directory entry is not synced yet. */
  private newDirectoryEntry: boolean;
  /** The session's revision (the `seq` of its last entry) as last read or written by this writer. */
  revision = 0;

  private constructor(handle: FileHandle, options: SessionFileWriterOptions, created: boolean) {
    this.handle = handle;
    this.options = options;
    this.newDirectoryEntry = created;
  }

  /**
   * Creates the directory if needed, takes the lock, and opens the file for appending.
   * @throws SessionLockedError when another live writer holds the session.
   */
  static async open(options: SessionFileWriterOptions): Promise<SessionFileWriter> {
    await mkdir(dirname(options.file), { recursive: true });
    if (options.lock) await acquireSessionLock(options);
    try {
      const created = await stat(options.file).then(
        () => false,
        (error: unknown) => {
          if (errorCode(error) === 'ENOENT') return true;
          throw error;
        },
      );
      // 'a+': appends always land at the end, and the last byte can still be read.
      const handle = await open(options.file, 'a+');
      const writer = new SessionFileWriter(handle, options, created);
      if (!created) await writer.readRevision();
      return writer;
    } catch (error) {
      if (options.lock) await releaseSessionLock(options.lockFile).catch(() => undefined);
      throw error;
    }
  }

  /** Appends `text` (complete lines) in one write, first ending a torn last line if there is one. */
  async append(text: string): Promise<void> {
    let data = Buffer.from(text, 'utf8');
    if (this.checkLineEnd) {
      if (!(await this.endsWithNewline())) data = Buffer.concat([Buffer.from('\n'), data]);
      this.checkLineEnd = false;
    }
    try {
      let offset = 0;
      while (offset < data.length) {
        const { bytesWritten } = await this.handle.write(data, offset, data.length - offset, null);
        offset += bytesWritten;
      }
      if (this.options.fsync) {
        await this.handle.sync();
        if (this.newDirectoryEntry) {
          await syncDirectory(dirname(this.options.file));
          this.newDirectoryEntry = false;
        }
      }
    } catch (error) {
      // Part of the text may be on disk: the next append must start on a fresh line.
      this.checkLineEnd = true;
      throw error;
    }
  }

  /**
   * Reads the session's revision from the file: under the lock, once on opening (nobody else
   * writes while we hold it); without a lock, before every append.
   */
  async readRevision(): Promise<number> {
    let revision = 0;
    for await (const entry of readSessionFile({ file: this.options.file, sessionId: this.options.sessionId })) revision = entrySeq(entry, revision);
    this.revision = revision;
    return revision;
  }

  /** Closes the handle and releases the lock. */
  async close(): Promise<void> {
    try {
      await this.handle.close();
    } finally {
      if (this.options.lock) await releaseSessionLock(this.options.lockFile);
    }
  }

  private async endsWithNewline(): Promise<boolean> {
    const { size } = await this.handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await this.handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  }
}
