import { constants } from 'node:fs';
import type { BigIntStats } from 'node:fs';
import { open, stat as statPath, type FileHandle } from 'node:fs/promises';
import { FILE_LINE_CHUNK_BYTES, fileLines } from './file-lines.js';
import { assertSupportedEntry, isSupportedEntry } from '../../session/assert-supported-entry.js';
import { assertOwnSessionFile } from './assert-own-session-file.js';
import { notARegularFile } from './not-a-regular-file.js';
import type { SessionEntry } from '../../state/entries.js';
import type { SessionLoadOptions, SessionStoreWarning } from '../../session/session-store.js';
import { countedBefore, findCheckpointStart } from './find-checkpoint-start.js';
import { TAIL_MIN_SIZE } from '../../session/pick-checkpoint-start.js';
import { entriesOf } from '../../session/entry-batches.js';
import { prefetchedReads, type ReadAt } from './prefetched-reads.js';

/** Options of {@link readSessionFile}. */
export interface ReadSessionFileOptions {
  /** The transcript file. */
  file: string;
  /** The session id, for warnings. */
  sessionId: string;
  /** Receives a warning for every skipped line. @default warnings are dropped */
  onWarning?: (warning: SessionStoreWarning) => void;
  /** Start at the agent's last checkpoint, as `SessionLoadOptions.fromCheckpoint` asks. @default the whole file */
  fromCheckpoint?: SessionLoadOptions['fromCheckpoint'];
  /** Told, once the file is read to its end, whether its last byte is a `\n` (not told when the file was cut shorter meanwhile). */
  onEnd?: (endsWithNewline: boolean) => void;
  /**
   * When the load starts at a checkpoint: told, before the first entry is yielded, the `id` and
   * `seq` of every entry before it (see `countedBefore`: from the lines' beginnings, without parsing
   * lines written as the library writes them), so that a count of the file can go on from them.
   * Not told for a file of more lines than a process keeps ids of (`MAX_REMEMBERED_IDS`).
   */
  onCountedBefore?: (entries: ReadonlyArray<{ id?: unknown; seq?: unknown }>) => void;
  /**
   * Called, before the file is closed, when every line of it was read, or counted before the
   * checkpoint the load started at (`onCountedBefore`), with its open handle and its status as
   * reading began (`size` is what was read): what the load saw may then stand for the file as
   * long as it is unchanged.
   */
  onReadWhole?: (handle: ReadAt, stat: BigIntStats) => Promise<void>;
  /**
   * Asked with the file's status before it is read: false when neither `onCountedBefore` nor
   * `onReadWhole` is wanted for this file (what they would give is known already), so the lines
   * before a checkpoint are not counted. @default true
   */
  wantsCount?: (stat: BigIntStats) => boolean;
}

const READ_NONBLOCK = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
/** {@link READ_NONBLOCK}, but a link at the path is not followed (ELOOP). */
const READ_NONBLOCK_NOFOLLOW = READ_NONBLOCK | (constants.O_NOFOLLOW ?? 0);

/** The file opened through the link at its path (the open that did not follow it failed with `failure`), or that failure. */
async function openedThroughLink(file: string, failure: unknown): Promise<FileHandle> {
  if ((failure as { code?: unknown }).code !== 'ELOOP') throw failure;
  return open(file, READ_NONBLOCK);
}

/** Whether the byte at `position` is a newline (false when the file no longer reaches it). */
async function newlineAt(handle: ReadAt, position: number): Promise<boolean> {
  const byte = Buffer.alloc(1);
  const { bytesRead } = await handle.read(byte, 0, 1, position);
  return bytesRead === 1 && byte[0] === 0x0a;
}

/** A line's entry (any JSON object), or what is wrong with it (a string). */
function parseLine(text: string): object | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'is not valid JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'is not a transcript entry (a JSON object)';
  return value;
}

/**
 * Reads a JSONL transcript line by line, in 1 MiB reads decoded 64 KiB at a time (memory stays
 * bounded by the longest line and one read). Reads the file as it was when reading began.
 * Unparseable lines are skipped with a warning: a cut-short last line after a crash, or damage in
 * the middle. A complete last line that only lacks its newline is kept: the next append
 * terminates it, and later loads must see the same entries. Yields nothing when the file does not
 * exist.
 * @throws ConfigurationError when the path opens a file of another name (another session's).
 * @throws SessionStoreCorruptError when the path is not a regular file (a FIFO, a directory).
 * @throws UnsupportedSchemaVersionError for an entry whose `$schemaVersion` this build cannot read.
 * @throws SessionStoreCorruptError for an entry without a `$schemaVersion`, or with one no agent-harness writes.
 */
export function readSessionFile(options: ReadSessionFileOptions): AsyncGenerator<SessionEntry> {
  return entriesOf(readSessionFileBatches(options));
}

/**
 * {@link readSessionFile}'s entries in arrays (none empty), one per read of the file at most: a
 * warning or an error comes after the array of the entries before it, so a reader of the arrays
 * sees them in the order a reader of single entries does.
 */
export async function* readSessionFileBatches(options: ReadSessionFileOptions): AsyncGenerator<SessionEntry[]> {
  const { file, sessionId } = options;
  // The name is checked while the file opens (each is a trip through libuv's thread pool, and a
  // small transcript's whole load is a few of them); nothing is read before the check passed, and
  // (where the system opens without following a link: not on Windows) nothing is opened through a
  // link before it (a link is opened once the check let it through).
  // Non-blocking: a FIFO put in place of the transcript opens at once (and is refused below)
  // instead of holding a thread of the pool until something writes to it.
  const [own, opened] = await Promise.allSettled([assertOwnSessionFile(file, sessionId), open(file, READ_NONBLOCK_NOFOLLOW)]);
  if (own.status === 'rejected') {
    if (opened.status === 'fulfilled') await opened.value.close();
    throw own.reason;
  }
  let handle;
  try {
    handle = opened.status === 'fulfilled' ? opened.value : await openedThroughLink(file, opened.reason);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return;
    throw error;
  }
  let closing: Promise<void> | undefined;
  try {
    // The file's first bytes are read while its status is taken: a small transcript is then read
    // whole, and closed while it is parsed.
    const first = Buffer.allocUnsafe(PREFETCH_BYTES);
    const [status, prefetch] = await Promise.allSettled([handle.stat({ bigint: true }), handle.read(first, 0, PREFETCH_BYTES, 0)]);
    if (status.status === 'rejected') throw status.reason;
    const stat = status.value;
    // (A directory or a FIFO fails the read: the status says why.)
    if (!stat.isFile()) throw notARegularFile(sessionId, file);
    if (prefetch.status === 'rejected') throw prefetch.reason;
    // Read only what existed as reading began: a concurrent append can't make half a line look like the end.
    const size = Number(stat.size);
    const bytes = first.subarray(0, prefetch.value.bytesRead);
    const whole = bytes.length >= size;
    if (whole) {
      closing = handle.close();
      // (Awaited below; a failure is not left unhandled meanwhile.)
      closing.catch(ignore);
    }
    const reads = prefetchedReads(bytes, whole ? undefined : handle);
    const counting = options.wantsCount?.(stat) ?? true;
    const readWhole = yield* readOpenSessionFile(reads, size, counting ? options : { ...options, onCountedBefore: undefined }, stat, () => grewPast(file, size));
    if (readWhole && counting) await options.onReadWhole?.(reads, stat);
  } finally {
    // Also when the reader stopped early (close waits for a pending read).
    await (closing ?? handle.close());
  }
}

/**
 * True when the file at `file` now holds more than `size` bytes: the last line read, cut short at
 * `size`, was being written as the load read (a write that crosses a page boundary shows part of
 * its line to a reader meanwhile). False when it cannot tell.
 */
async function grewPast(file: string, size: number): Promise<boolean> {
  try {
    return (await statPath(file)).size > size;
  } catch {
    return false;
  }
}

/** Bytes read from a transcript's beginning while its status is taken (most chat sessions fit). */
const PREFETCH_BYTES = 64 * 1024;

function ignore(): void {}

/**
 * {@link readSessionFileBatches} of a transcript already open (`handle`, a regular file checked to
 * be the session's), up to its first `size` bytes: for a writer counting the file it holds open,
 * which need not find and open it again. Leaves the handle open.
 * @param stat - the file's status as reading began, when known: a scan for a checkpoint may then
 *   go on from where the last scan of the file ended.
 * @param stillWritten - whether the file holds more than `size` bytes now: a last line cut short
 *   at `size` is then another writer's, being written, and is left out without a warning.
 * @returns true when it read the file from its first line, or counted the lines before the
 * checkpoint it started at (`onCountedBefore`).
 */
export async function* readOpenSessionFile(
  handle: ReadAt,
  size: number,
  options: ReadSessionFileOptions,
  stat?: BigIntStats,
  stillWritten?: () => Promise<boolean>,
): AsyncGenerator<SessionEntry[], boolean> {
  const { file, sessionId, onWarning, fromCheckpoint, onEnd, onCountedBefore } = options;
  if (size === 0) return true;
  const warn = (line: number, message: string) => onWarning?.({ sessionId, line, message });
  const skipped = (line: number, problem: string) => warn(line, `Skipped line ${line} of ${file}: it ${problem}.`);
  // Named in a string only when it fails (a transcript has thousands of lines).
  const refuse = (entry: object, line: number) => assertSupportedEntry(entry, sessionId, `the transcript entry on line ${line} of ${file}`);

  // Resuming a long transcript: from the agent's last checkpoint on (see findCheckpointStart).
  // (The lines are collected only for a count that goes on from them.)
  // (With the file's status, the scan goes on from where the last one of this file ended: see scanEndOf.)
  const start = fromCheckpoint && size >= TAIL_MIN_SIZE ? await findCheckpointStart(handle, size, fromCheckpoint, undefined, onCountedBefore ? undefined : 0, stat && { file, stat }) : undefined;
  const counted = start !== undefined && start.lines !== undefined && onCountedBefore !== undefined;
  if (counted) onCountedBefore(await countedBefore(handle, start.lines!, start.place.line));
  // One line of lookahead tells which line is the last.
  let pending: string | undefined;
  let lineNumber = start ? start.place.line - 1 : 0;
  let entries: SessionEntry[] = [];
  // The checkpoint started at was read and parsed to pick it (it holds a whole state): the lines
  // are read from its line break on (the rest of its line is empty), not decoded again.
  if (start !== undefined) {
    if (!isSupportedEntry(start.entry)) refuse(start.entry, start.place.line);
    entries.push(start.entry as SessionEntry);
  }
  const onLastByte = onEnd && ((byte: number) => onEnd(byte === 0x0a));
  for await (const batch of fileLines(handle, size, FILE_LINE_CHUNK_BYTES, start?.place.end ?? 0, undefined, onLastByte)) {
    for (const text of batch) {
      if (pending !== undefined && pending.trim().length > 0) {
        const parsed = parseLine(pending);
        if (typeof parsed === 'string' || !isSupportedEntry(parsed)) {
          // What came before is handed over first, then the warning or the error.
          if (entries.length > 0) yield entries;
          entries = [];
          if (typeof parsed === 'string') skipped(lineNumber, parsed);
          else refuse(parsed, lineNumber);
        } else entries.push(parsed);
      }
      // A byte order mark (a file saved by an editor) is not part of the first entry.
      pending = lineNumber === 0 && text.startsWith('\uFEFF') ? text.slice(1) : text;
      lineNumber += 1;
    }
    if (entries.length > 0) yield entries;
    entries = [];
  }
  // (The checkpoint alone, when nothing follows its line: no lines were read.)
  if (entries.length > 0) yield entries;
  if (pending !== undefined && pending.trim().length > 0) {
    const parsed = parseLine(pending);
    if (typeof parsed !== 'string') {
      if (!isSupportedEntry(parsed)) refuse(parsed, lineNumber);
      yield [parsed as SessionEntry];
    }
    // Its last byte is read only now: a last line that does not parse is rare.
    else if (await newlineAt(handle, size - 1)) skipped(lineNumber, parsed);
    // Another writer's line, part written as the load began: not there yet, so no damage to report
    // (the load gives the entries before it, as for any append it began before).
    else if (!(await stillWritten?.())) warn(lineNumber, `Skipped the last line (${lineNumber}) of ${file}: it was cut short (no newline at the end and ${parsed}), most likely by a crash during a write.`);
  }
  return start === undefined || counted;
}
