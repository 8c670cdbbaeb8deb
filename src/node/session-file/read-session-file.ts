import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { assertSupportedEntry } from '../../session/assert-supported-entry.js';
import { assertOwnSessionFile } from './assert-own-session-file.js';
import { notARegularFile } from './not-a-regular-file.js';
import type { SessionEntry } from '../../state/entries.js';
import type { SessionStoreWarning } from '../../session/session-store.js';

/** Options of {@link readSessionFile}. */
export interface ReadSessionFileOptions {
  /** The transcript file. */
  file: string;
  /** The session id, for warnings. */
  sessionId: string;
  /** Receives a warning for every skipped line. @default warnings are dropped */
  onWarning?: (warning: SessionStoreWarning) => void;
}

type Parsed = { entry: object } | { problem: string };

const READ_NONBLOCK = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Files up to this size are read whole rather than streamed (a 40-message session is ~30 KB). */
const WHOLE_FILE_BYTES = 256 * 1024;

/** The first `size` bytes of the file (as it was when its size was taken: later appends are not read). */
async function readExactly(handle: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size);
  let offset = 0;
  while (offset < size) {
    const { bytesRead } = await handle.read(buffer, offset, size - offset, offset);
    if (bytesRead === 0) return buffer.subarray(0, offset); // truncated meanwhile
    offset += bytesRead;
  }
  return buffer;
}

/**
 * The lines of a whole file as `readline` gives them (split at `\n`, `\r\n` and a lone `\r`; no
 * empty line after a final newline), decoded as UTF-8 with U+FFFD for invalid bytes.
 */
function linesOf(bytes: Buffer): string[] {
  const lines = bytes.toString('utf8').split(/\r\n|\n|\r/);
  // What follows a final line break is not a line.
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function parseLine(text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'is not a transcript entry (a JSON object)' };
  return { entry: value };
}

/**
 * Reads a JSONL transcript line by line: a file up to 256 KiB in one read, a larger one streamed
 * (memory stays bounded by the longest line and 256 KiB), with the same result. Reads the
 * file as it was when reading began. Unparseable lines are skipped with a warning: a cut-short
 * last line after a crash, or damage in the middle. A complete last line that only lacks its
 * newline is kept: the next append terminates it, and later loads must see the same entries.
 * Yields nothing when the file does not exist.
 * @throws ConfigurationError when the path opens a file of another name (another session's).
 * @throws SessionStoreCorruptError when the path is not a regular file (a FIFO, a directory).
 * @throws UnsupportedSchemaVersionError for an entry whose `$schemaVersion` this build cannot read.
 * @throws SessionStoreCorruptError for an entry without a `$schemaVersion`, or with one no agent-harness writes.
 */
export async function* readSessionFile(options: ReadSessionFileOptions): AsyncGenerator<SessionEntry> {
  const { file, sessionId, onWarning } = options;
  await assertOwnSessionFile(file, sessionId);
  let handle;
  try {
    // Non-blocking: a FIFO put in place of the transcript opens at once (and is refused below)
    // instead of holding a thread of the pool until something writes to it.
    handle = await open(file, READ_NONBLOCK);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return;
    throw error;
  }
  let stream: ReturnType<typeof handle.createReadStream> | undefined;
  let lines: ReturnType<typeof createInterface> | undefined;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw notARegularFile(sessionId, file);
    const { size } = stat;
    if (size === 0) return;
    // A file up to WHOLE_FILE_BYTES (most sessions) is read in one go and split here: one read
    // instead of a read of its last byte, a stream and a line reader, about a third of a resume.
    const whole = size <= WHOLE_FILE_BYTES ? await readExactly(handle, size) : undefined;
    let terminated: boolean;
    if (whole) terminated = whole[size - 1] === 0x0a;
    else {
      const lastByte = Buffer.alloc(1);
      await handle.read(lastByte, 0, 1, size - 1);
      terminated = lastByte[0] === 0x0a;
      // Read only what exists now: a concurrent append can't make half a line look like the end.
      stream = handle.createReadStream({ start: 0, end: size - 1, autoClose: false, encoding: 'utf8', highWaterMark: 256 * 1024 });
      lines = createInterface({ input: stream, crlfDelay: Infinity });
    }

    const warn = (line: number, message: string) => onWarning?.({ sessionId, line, message });
    const toEntry = (text: string, line: number, isLast: boolean): SessionEntry | undefined => {
      if (text.trim().length === 0) return undefined;
      const parsed = parseLine(text);
      if ('problem' in parsed) {
        if (isLast && !terminated) {
          warn(line, `Skipped the last line (${line}) of ${file}: it was cut short (no newline at the end and ${parsed.problem}), most likely by a crash during a write.`);
        } else {
          warn(line, `Skipped line ${line} of ${file}: it ${parsed.problem}.`);
        }
        return undefined;
      }
      assertSupportedEntry(parsed.entry, sessionId, `the transcript entry on line ${line} of ${file}`);
      return parsed.entry;
    };

    // One line of lookahead tells which line is the last.
    let pending: string | undefined;
    let lineNumber = 0;
    for await (const text of whole ? linesOf(whole) : lines!) {
      if (pending !== undefined) {
        const entry = toEntry(pending, lineNumber, false);
        if (entry !== undefined) yield entry;
      }
      // A byte order mark (a file saved by an editor) is not part of the first entry.
      pending = lineNumber === 0 && text.startsWith('\uFEFF') ? text.slice(1) : text;
      lineNumber += 1;
    }
    if (pending !== undefined) {
      const entry = toEntry(pending, lineNumber, true);
      if (entry !== undefined) yield entry;
    }
  } finally {
    // Also when the reader stopped early: stop reading, then close (close waits for a pending read).
    lines?.close();
    stream?.destroy();
    await handle.close();
  }
}
