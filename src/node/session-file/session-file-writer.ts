import { constants, type BigIntStats, type Stats } from 'node:fs';
import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { syncDirectory } from '../fs/sync-directory.js';
import { dirname } from 'node:path';
import { entrySeq } from '../../state/entry-seq.js';
import type { SessionEntry } from '../../state/entries.js';
import { clashesWith, type EntryIdClash } from '../../session/entry-id-clash.js';
import { readOpenSessionFile, readSessionFile } from './read-session-file.js';
import { assertOwnSessionFile } from './assert-own-session-file.js';
import { notARegularFile } from './not-a-regular-file.js';
import { isRememberedStatus } from './remembered-session-files.js';
import { EntryIds } from '../../session/entry-ids.js';
import type { ReadAt } from './prefetched-reads.js';

/** A transcript's revision, last id and ids, counted as its writer counts them. */
export class TranscriptCount {
  /** The `seq` of its last entry. */
  revision = 0;
  /** The id of its last entry (undefined when that is not a string). */
  lastId: string | undefined;
  /** The `seq` of the entries by id (incomplete once {@link TranscriptCount.overflowed}). */
  ids = new EntryIds();
  /** True once more ids were read than the count keeps: its ids are then not all of them. */
  overflowed = false;
  readonly #maxIds: number;

  /** @param maxIds - the most ids kept; past it the count is {@link TranscriptCount.overflowed}. @default no limit */
  constructor(maxIds = Number.POSITIVE_INFINITY) {
    this.#maxIds = maxIds;
  }

  /** Counts the next entries read. */
  add(entries: ReadonlyArray<{ id?: unknown; seq?: unknown }>): void {
    let { revision } = this;
    let lastId: unknown = this.lastId;
    for (const entry of entries) {
      revision = entrySeq(entry, revision);
      lastId = entry.id;
      if (typeof entry.id !== 'string' || this.overflowed) continue;
      if (this.ids.size >= this.#maxIds) {
        this.overflowed = true;
        this.ids = new EntryIds();
      } else this.ids.add(entry.id, revision);
    }
    this.revision = revision;
    this.lastId = typeof lastId === 'string' ? lastId : undefined;
  }
}

/** How far back from its end {@link rememberedFromRead} looks for the beginning of a file's last line. */
const LAST_LINE_WINDOW = 64 * 1024;

/**
 * What a load that read a transcript whole (its status `stat` as reading began, its last byte a
 * newline) and counted it (`count`) knows of the file, for the session's next writer: as if a
 * writer had left it so (see {@link RememberedSessionFile}), its end read now through the load's
 * handle (one read of at most 64 KiB). Undefined for a file too small to be worth it, whose
 * last line is longer than that, or whose count overflowed.
 */
export async function rememberedFromRead(handle: ReadAt, stat: BigIntStats, count: TranscriptCount): Promise<RememberedSessionFile | undefined> {
  const size = Number(stat.size);
  if (size < REMEMBER_MIN_SIZE || count.overflowed) return undefined;
  const length = Math.min(size, LAST_LINE_WINDOW);
  const end = Buffer.alloc(length);
  const { bytesRead } = await handle.read(end, 0, length, size - length);
  if (bytesRead !== length || end[length - 1] !== 0x0a) return undefined;
  const lineStart = end.lastIndexOf(0x0a, length - 2) + 1;
  // No newline before the last one in the window: the last line begins before it (unless the window is the whole file).
  if (lineStart === 0 && length < size) return undefined;
  return {
    dev: stat.dev,
    ino: stat.ino,
    size: stat.size,
    ctimeNs: stat.ctimeNs,
    tail: Buffer.from(end.subarray(Math.max(0, length - TAIL_BYTES))),
    head: Buffer.from(end.subarray(lineStart, lineStart + HEAD_BYTES)),
    headAt: size - length + lineStart,
    revision: count.revision,
    lastId: count.lastId,
    ids: count.ids,
  };
}

/** Options of {@link SessionFileWriter.open}. */
export interface SessionFileWriterOptions {
  /** The session id, for warnings. */
  sessionId: string;
  /** The transcript file. */
  file: string;
  /** Flush every append to the disk (`fsync`) before it resolves. */
  fsync: boolean;
}

/**
 * What a closed writer knew of its file, to open the next writer of the session without counting
 * the file again: used while the file is the same one (device and inode), of the same size,
 * unchanged since (its status change time, which every write moves, though only to the clock's
 * tick on older kernels), still ending with the bytes the writer wrote last and with its last line
 * beginning as the writer wrote it (the last entry's id).
 */
export interface RememberedSessionFile extends WrittenEnd {
  dev: bigint;
  ino: bigint;
  size: bigint;
  ctimeNs: bigint;
  revision: number;
  lastId: string | undefined;
  ids: EntryIds;
}

/** How a writer's file ends, as its last appends wrote it. */
interface WrittenEnd {
  /** The file's last bytes (at most {@link TAIL_BYTES}). */
  tail: Buffer;
  /** The beginning of the file's last line (its entry's id, parent and seq), at most {@link HEAD_BYTES}. */
  head: Buffer;
  /** Where {@link WrittenEnd.head} starts in the file. */
  headAt: number;
}

/** The bytes of its file's end a writer keeps, to tell the file it left from another of its size. */
const TAIL_BYTES = 1024;

/** The bytes of the beginning of its file's last line a writer keeps, for the same (the last entry's id is there). */
const HEAD_BYTES = 256;

/**
 * The smallest file a writer remembers at its close: counting a smaller one again costs about what
 * remembering it costs every close (one `fstat`). A load counts a file for its next writer only
 * from this size on too (`rememberedFromRead` keeps nothing smaller).
 */
export const REMEMBER_MIN_SIZE = 64 * 1024;

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** 'a+' (read, append, create), but a link at the path is not followed (ELOOP): no file is created through it. */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const APPEND_CREATE_NOFOLLOW = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | NOFOLLOW;
/** The same, creating nothing: for a file that exists. */
const APPEND_NOFOLLOW = constants.O_RDWR | constants.O_APPEND | NOFOLLOW;


/**
 * The open, append-mode handle of a session file, and the session's revision as of the file's
 * size it last saw. The file is created by the first append, so a refused first append leaves no
 * empty session behind. Locks are the store's business: it calls {@link refresh} before every
 * append (cheap when nothing changed), and serializes calls per session.
 */
export class SessionFileWriter {
  private handle: FileHandle | undefined;
  private readonly options: SessionFileWriterOptions;
  /** Whether the file may end without a newline (opened existing, or a write failed midway). */
  private checkLineEnd = true;
  /** The file was created by this writer and its directory entry is not synced yet. */
  private newDirectoryEntry = false;
  /** The file's size when {@link revision} was last true; -1 forces a count on the next refresh. */
  private knownSize = -1;
  /** The file's identity, to notice it was deleted or replaced under the handle. */
  private identity: { dev: number; ino: number } | undefined;
  /** The session's revision (the `seq` of its last entry) as last read or written by this writer. */
  revision = 0;
  /** The id of the session's last entry, when it has one that is a string. */
  lastId: string | undefined;
  /** The `seq` of the entries by id, as of {@link revision}. */
  private ids = new EntryIds();
  /** What the session's previous writer knew, for the first {@link refresh}. */
  private remembered: RememberedSessionFile | undefined;
  /** How the file ends as this writer wrote it; undefined until it appends (past 64 KiB), and after a count. */
  private end: WrittenEnd | undefined;

  private constructor(options: SessionFileWriterOptions) {
    this.options = options;
  }

  /** A writer for the session file (opened when it exists) with its revision counted. */
  static async open(options: SessionFileWriterOptions, remembered?: RememberedSessionFile): Promise<SessionFileWriter> {
    const writer = new SessionFileWriter(options);
    writer.remembered = remembered;
    await writer.refresh();
    return writer;
  }

  /**
   * What this writer knows of its file, for the session's next writer ({@link open}), or undefined
   * when the file's end is not what it wrote last (it has not appended, a write failed midway,
   * another writer appended since) or the file is small (under 64 KiB: counted again quickly).
   * Call it before {@link close}.
   */
  async remember(): Promise<RememberedSessionFile | undefined> {
    const end = this.end;
    if (this.handle === undefined || this.knownSize < REMEMBER_MIN_SIZE || end === undefined) return undefined;
    const { dev, ino, size, ctimeNs } = await this.handle.stat({ bigint: true });
    if (size !== BigInt(this.knownSize)) return undefined;
    return { dev, ino, size, ctimeNs, tail: end.tail, head: end.head, headAt: end.headAt, revision: this.revision, lastId: this.lastId, ids: this.ids };
  }

  /** True when the file (`size` bytes long) holds `bytes` at `at`. */
  private async holds(bytes: Buffer, at: number, size: number): Promise<boolean> {
    if (at < 0 || at + bytes.length > size) return false;
    const read = Buffer.alloc(bytes.length);
    const { bytesRead } = await this.handle!.read(read, 0, bytes.length, at);
    return bytesRead === bytes.length && read.equals(bytes);
  }

  /** True when the file (`size` bytes long) still ends as `remembered` says: its last bytes, and the beginning of its last line where the last bytes do not reach it. */
  private async endsAsLeft(remembered: RememberedSessionFile, size: number): Promise<boolean> {
    const tailAt = size - remembered.tail.length;
    if (!(await this.holds(remembered.tail, tailAt, size))) return false;
    return remembered.headAt >= tailAt || this.holds(remembered.head, remembered.headAt, size);
  }

  /**
   * Brings {@link revision} up to date with the file: counts the entries again when the file's
   * size is not the one this writer last saw (another writer appended, or a crash tore a line).
   * @returns false when the path no longer names this writer's file (deleted or replaced): the
   * caller must close this writer and open a new one.
   */
  async refresh(): Promise<boolean> {
    const remembered = this.remembered;
    this.remembered = undefined;
    let current;
    try {
      // To the nanosecond where a previous writer's state may be taken: its status change time.
      const status: Promise<Stats | BigIntStats> = remembered === undefined ? stat(this.options.file) : stat(this.options.file, { bigint: true });
      // (A writer not yet open opens its file meanwhile, where it can do so without following a link.)
      current = this.handle === undefined && NOFOLLOW !== 0 ? await this.openWhile(status) : await status;
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      if (this.handle !== undefined) return false;
      this.revision = 0;
      this.lastId = undefined;
      this.ids = new EntryIds();
      return true;
    }
    if (this.handle === undefined) await this.openHandle(false);
    if (Number(current.ino) !== this.identity!.ino || Number(current.dev) !== this.identity!.dev) return false;
    const size = Number(current.size);
    if (size === this.knownSize) return true;
    // The file as the previous writer left it (its last append ended a line): what it knew holds.
    if (
      remembered !== undefined &&
      'ctimeNs' in current &&
      isRememberedStatus(remembered, current) &&
      (await this.endsAsLeft(remembered, size))
    ) {
      this.revision = remembered.revision;
      this.lastId = remembered.lastId;
      this.ids = remembered.ids;
      this.end = { tail: remembered.tail, head: remembered.head, headAt: remembered.headAt };
      this.knownSize = size;
      this.checkLineEnd = false;
      return true;
    }
    const count = new TranscriptCount();
    // Through the writer's own handle (the file checked and open): not found and opened again.
    // Its last byte read too: a torn last line is ended by the next append without reading it again.
    let endsWithNewline = size === 0;
    const onEnd = (ends: boolean) => (endsWithNewline = ends);
    for await (const batch of readOpenSessionFile(this.handle!, size, { file: this.options.file, sessionId: this.options.sessionId, onEnd })) count.add(batch);
    this.revision = count.revision;
    this.ids = count.ids;
    this.lastId = count.lastId;
    this.knownSize = size;
    // (An append checks the size first: a file changed since is counted again.)
    this.checkLineEnd = !endsWithNewline;
    this.end = undefined;
    return true;
  }

  /** The JSON text of the stored entries numbered `after + 1` to `upTo`, as read from the file now. */
  async storedJson(after: number, upTo: number): Promise<string[]> {
    const found: string[] = [];
    let revision = 0;
    for await (const entry of readSessionFile({ file: this.options.file, sessionId: this.options.sessionId })) {
      revision = entrySeq(entry, revision);
      if (revision > upTo) break;
      if (revision > after) found.push(JSON.stringify(entry));
    }
    return found;
  }

  /**
   * The first of `entries` (to be numbered from `after + 1`) that takes the id of a stored entry
   * for other content. Read from the file only when an id is already taken (rare).
   */
  async idClash(entries: readonly SessionEntry[], after: number): Promise<EntryIdClash | undefined> {
    for (const [index, entry] of entries.entries()) {
      if (typeof entry.id !== 'string') continue;
      // The stored entries whose id has this one's hash, first first: the first with this very id decides.
      for (const storedSeq of this.ids.seqsOf(entry.id)) {
        const [text] = await this.storedJson(storedSeq - 1, storedSeq);
        const stored = text === undefined ? undefined : (JSON.parse(text) as SessionEntry);
        // Another id of this hash.
        if (stored !== undefined && stored.id !== entry.id) continue;
        // This id with other content, or an entry gone since it was counted (it cannot be told): refused.
        if (stored === undefined || clashesWith(stored, entry)) return { id: entry.id, storedSeq, seq: after + index + 1 };
        break;
      }
    }
    return undefined;
  }

  /**
   * Appends `bytes` (complete lines in UTF-8: `entries` as JSON) in one write, first ending a torn last line
   * if there is one, and records the session's new revision, the id of its last entry and the ids.
   */
  async append(bytes: Buffer, revision: number, lastId: string | undefined, entries: readonly SessionEntry[]): Promise<void> {
    if (this.handle === undefined) await this.openHandle(true);
    const handle = this.handle!;
    let data = bytes;
    if (this.checkLineEnd) {
      if (!(await this.endsWithNewline())) data = Buffer.concat([Buffer.from('\n'), data]);
      this.checkLineEnd = false;
    }
    try {
      let offset = 0;
      while (offset < data.length) {
        const { bytesWritten } = await handle.write(data, offset, data.length - offset, null);
        offset += bytesWritten;
      }
      if (this.options.fsync) {
        await handle.sync();
        if (this.newDirectoryEntry) {
          await syncDirectory(dirname(this.options.file));
          this.newDirectoryEntry = false;
        }
      }
    } catch (error) {
      // Part of the text may be on disk: count again, on a fresh line, before the next append.
      this.checkLineEnd = true;
      this.knownSize = -1;
      this.end = undefined;
      throw error;
    }
    const first = revision - entries.length + 1;
    for (const [index, entry] of entries.entries()) if (typeof entry.id === 'string') this.ids.add(entry.id, first + index);
    this.revision = revision;
    this.lastId = lastId;
    if (this.knownSize < 0) return;
    const before = this.knownSize;
    this.knownSize += data.length;
    // Only a file worth remembering keeps its end: the file's last bytes are these, whatever came
    // before them, and its last line starts in them (an append writes whole lines).
    if (this.knownSize < REMEMBER_MIN_SIZE) return;
    const kept = data.length >= TAIL_BYTES || this.end === undefined ? data : Buffer.concat([this.end.tail, data]);
    const lineStart = data.lastIndexOf(0x0a, data.length - 2) + 1;
    this.end = {
      tail: Buffer.from(kept.subarray(Math.max(0, kept.length - TAIL_BYTES))),
      head: Buffer.from(data.subarray(lineStart, lineStart + HEAD_BYTES)),
      headAt: before + lineStart,
    };
  }

  /** Closes the handle. */
  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }

  /**
   * For a writer not yet open, {@link refresh}'s `status` of the path, while the name is checked
   * and the file opened without following a link or creating it (each is a trip through libuv's
   * thread pool; one after the other they were most of a request's first append). The file is kept
   * open only once the check passed; a link, a directory in its place or a file gone meanwhile are
   * opened as {@link openHandle} opens them, after the check.
   * @throws the status's error (`ENOENT`: nothing there, and nothing left open), or the check's.
   */
  private async openWhile(statusOfPath: Promise<Stats | BigIntStats>): Promise<Stats | BigIntStats> {
    const { file, sessionId } = this.options;
    const [status, own, opened] = await Promise.allSettled([statusOfPath, assertOwnSessionFile(file, sessionId), open(file, APPEND_NOFOLLOW)]);
    if (status.status === 'rejected' || own.status === 'rejected') {
      if (opened.status === 'fulfilled') await opened.value.close();
      throw status.status === 'rejected' ? status.reason : (own as PromiseRejectedResult).reason;
    }
    if (opened.status === 'fulfilled') await this.adopt(opened.value, false);
    return status.value;
  }

  /** Opens the file for appending ('a+': writes land at the end, the last byte can still be read). */
  private async openHandle(create: boolean): Promise<void> {
    // Where a link is never followed on creation (O_NOFOLLOW), the check once the file is open
    // suffices for a file this call may create: opening creates nothing through a link, and the
    // file is closed unwritten when it is another session's. Elsewhere (Windows) it comes first too.
    if (!create || !NOFOLLOW) await assertOwnSessionFile(this.options.file, this.options.sessionId);
    let handle: FileHandle;
    try {
      handle = await this.openFile();
    } catch (error) {
      // A directory in place of the transcript: named as the damage it is, not a bare EISDIR.
      if (errorCode(error) === 'EISDIR') throw notARegularFile(this.options.sessionId, this.options.file);
      // The store's folder is made when the first file is (not on every new session: it exists).
      if (!create || errorCode(error) !== 'ENOENT') throw error;
      await mkdir(dirname(this.options.file), { recursive: true });
      handle = await this.openFile();
    }
    await this.adopt(handle, create);
  }

  /** Takes `handle`, just opened, as the writer's: a regular file (checked again when `create`), its identity noted. Closes it when it is not. */
  private async adopt(handle: FileHandle, create: boolean): Promise<void> {
    try {
      // Checked again once the file exists: a link that pointed nowhere may have been followed.
      if (create) await assertOwnSessionFile(this.options.file, this.options.sessionId);
      const stat = await handle.stat();
      if (!stat.isFile()) throw notARegularFile(this.options.sessionId, this.options.file);
      const { dev, ino, size } = stat;
      this.identity = { dev, ino };
      // Created by this append (under the lock nobody else creates it): nothing to count.
      if (create && size === 0) {
        this.newDirectoryEntry = true;
        this.knownSize = 0;
        // Empty: no torn last line to end.
        this.checkLineEnd = false;
      }
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
    this.handle = handle;
  }

  /**
   * Opens the file without following a link when that could create a file (a link made since the
   * check, pointing nowhere, would otherwise create another session's transcript); a link is
   * checked again (where it points, or would create a file), then followed.
   */
  private async openFile(): Promise<FileHandle> {
    try {
      return await open(this.options.file, APPEND_CREATE_NOFOLLOW);
    } catch (error) {
      // ELOOP on Linux and macOS, EMLINK on FreeBSD: the path is a link.
      if (errorCode(error) !== 'ELOOP' && errorCode(error) !== 'EMLINK') throw error;
    }
    await assertOwnSessionFile(this.options.file, this.options.sessionId);
    return open(this.options.file, 'a+');
  }

  private async endsWithNewline(): Promise<boolean> {
    const { size } = await this.handle!.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await this.handle!.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  }
}
