import type { BigIntStats } from 'node:fs';
import { keepScanEnd, scanEndOf } from './scanned-transcripts.js';
import { CHECKPOINT_KIND, idFieldOf, KIND_WITHIN, pickCheckpointStart } from '../../session/pick-checkpoint-start.js';
import { parseEntryText } from '../../session/parse-entry-text.js';
import type { SessionLoadOptions } from '../../session/session-store.js';
import { MAX_REMEMBERED_IDS } from './remembered-session-files.js';
import type { ReadAt } from './prefetched-reads.js';

/** Where a line of a file is: its bytes `[start, end)` (its break excluded) and its 1-based number. */
export interface LinePlace {
  start: number;
  end: number;
  line: number;
}

/**
 * What a count of the transcript (`TranscriptCount`) needs of an entry: its `id` and `seq`, read
 * from the beginning of its line where that is as the library writes it; else the line's place,
 * to be parsed (`countedBefore`).
 */
export type CountedLine = { line: number; id: string; seq: number } | LinePlace;

/** A checkpoint line a load may start at, and its entry (parsed already). */
export interface CheckpointStart {
  place: LinePlace;
  entry: object;
  /** Every non-empty line of the file, as {@link CountedLine}s; undefined past `MAX_REMEMBERED_IDS` lines. */
  lines: CountedLine[] | undefined;
}

/** Bytes read at a time while scanning (bytes only: no string is made of them). */
const SCAN_CHUNK_BYTES = 1024 * 1024;
const LF = 0x0a;
const CR = 0x0d;
const CHECKPOINT = Buffer.from(CHECKPOINT_KIND);

/** A line that may be a checkpoint, with the non-empty line before it and its first KIND_WITHIN bytes (where the library writes its id and kind). */
export interface CheckpointCandidate {
  place: LinePlace;
  previous: LinePlace;
  head: Buffer;
}

/** What {@link scanLines} finds: the first line, and each line that may be a checkpoint with the (non-empty) line before it. */
export interface TranscriptScan {
  first: LinePlace | undefined;
  candidates: CheckpointCandidate[];
  /** Every non-empty line, in order (see {@link CountedLine}); undefined once there are more than the scan keeps (or when it went on from a {@link ScanEnd}). */
  lines: CountedLine[] | undefined;
  /** Where it ended, when its last byte is a `\n` (a scan of the file grown since can go on from there). */
  end: ScanEnd | undefined;
}

/** Where a scan of a file whose byte before `size` is a `\n` ended: a scan of the file grown since goes on from there. */
export interface ScanEnd {
  size: number;
  /** The number the next line takes. */
  line: number;
  /** The last non-empty line. */
  previous: LinePlace | undefined;
  first: LinePlace | undefined;
  candidates: readonly CheckpointCandidate[];
  /** The file's last bytes (at most 256): to tell the file it scanned from another. */
  tail: Buffer;
}

/** The bytes of its end a {@link ScanEnd} keeps. */
const SCAN_TAIL_BYTES = 256;

/**
 * The line of a transcript a load asked for `fromCheckpoint` may start at, found without decoding
 * the file: its lines are split as `fileLines` splits them (at `\n`, `\r\n` and a lone `\r`) and
 * numbered alike, and of those whose beginning holds `"kind":"checkpoint"` (as the library writes
 * an entry's kind) {@link pickCheckpointStart} picks one, reading again only what it looks at.
 * Undefined when none qualifies: the load reads the whole file.
 * @param size - the bytes of the file to read (what existed when the load began).
 * @param maxLines - the most lines collected as {@link CheckpointStart.lines} (0: none). @default MAX_REMEMBERED_IDS
 * @param known - the file's path and status: where a scan of it ended is kept, and a scan that
 *   collects no lines goes on from the last one kept when the file only grew since (see `scanEndOf`).
 */
export async function findCheckpointStart(
  handle: ReadAt,
  size: number,
  hint: NonNullable<SessionLoadOptions['fromCheckpoint']>,
  chunkBytes = SCAN_CHUNK_BYTES,
  maxLines?: number,
  known?: { file: string; stat: BigIntStats },
): Promise<CheckpointStart | undefined> {
  const from = known && maxLines === 0 ? await scanEndOf(known.file, known.stat, handle, size) : undefined;
  const scan = await scanLines(handle, size, chunkBytes, maxLines, from);
  if (known && scan.end) keepScanEnd(known.file, known.stat, scan.end);
  const { first, candidates } = scan;
  if (first === undefined) return undefined;
  const parseAt = async (place: LinePlace) => parseEntryText(withoutBom((await readBytes(handle, place)).toString('utf8'), place));
  const start = await pickCheckpointStart(candidates, hint, {
    first: () => parseAt(first),
    entry: ({ place }) => parseAt(place),
    before: ({ previous }) => parseAt(previous),
    copied: (entry, earlier) => earlier.some(({ head }) => head.includes(idFieldOf(entry))),
  });
  return start && { place: start.candidate.place, entry: start.entry, lines: scan.lines };
}

/**
 * The `id` and `seq` of each entry on the lines before line `line`, for a count of the file that
 * goes on from there: as {@link scanLines} read them from the lines' beginnings, and where a line
 * is not as the library writes it, from the line parsed (a line that does not parse, or is no
 * object, counts for nothing, as the reader skips it). What the lines hold past their beginning is
 * not read: a damaged line whose beginning is the library's counts its id, which only makes an
 * append of an entry with that very id read the file to compare (see `SessionFileWriter.idClash`).
 */
export async function countedBefore(handle: ReadAt, lines: readonly CountedLine[], line: number): Promise<Array<{ id?: unknown; seq?: unknown }>> {
  const counted: Array<{ id?: unknown; seq?: unknown }> = [];
  for (const counting of lines) {
    if (counting.line >= line) break;
    if ('id' in counting) {
      counted.push({ id: counting.id, seq: counting.seq });
      continue;
    }
    // As the reader reads it: a blank line, or one that is no JSON object, counts for nothing.
    const entry = parseEntryText(withoutBom((await readBytes(handle, counting)).toString('utf8'), counting));
    if (entry !== undefined) counted.push(entry as { id?: unknown; seq?: unknown });
  }
  return counted;
}

/** A byte order mark starting the first line is not part of its entry (as the reader strips it). */
function withoutBom(text: string, place: LinePlace): string {
  return place.line === 1 && text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** The bytes of a line (fewer when the file was cut shorter since). */
async function readBytes(handle: ReadAt, place: LinePlace): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(place.end - place.start);
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, place.start + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/**
 * Scans the first `size` bytes of a file line by line without decoding it: the first line, and
 * every later line whose first {@link KIND_WITHIN} bytes hold `"kind":"checkpoint"`, with the non-empty
 * line before it; and every non-empty line as a {@link CountedLine} (up to `maxLines` of them).
 * @param from - where a scan of the same file ended (its `end`): the scan goes on from there,
 *   with what that scan found, and collects no lines. The caller checks the file is the one it
 *   scanned (see `scanEndOf`).
 */
export async function scanLines(handle: ReadAt, size: number, chunkBytes = SCAN_CHUNK_BYTES, maxLines = MAX_REMEMBERED_IDS, from?: ScanEnd): Promise<TranscriptScan> {
  const scan: TranscriptScan = { first: from?.first, candidates: from ? [...from.candidates] : [], lines: from ? undefined : [], end: undefined };
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(chunkBytes, size - (from?.size ?? 0))));
  // The last non-empty line (its start is -1 before there is one): an object only for a candidate's.
  let previousStart = from?.previous?.start ?? -1;
  let previousEnd = from?.previous?.end ?? 0;
  let previousLine = from?.previous?.line ?? 0;
  let lineStart = from?.size ?? 0;
  let line = from?.line ?? 1;
  /** The last bytes read (for the scan's end). */
  let tail = from?.tail ?? Buffer.alloc(0);
  /** The first bytes of the current line read with earlier chunks (up to KIND_WITHIN). */
  let head: Buffer | undefined;
  /** The last chunk ended with `\r`: a `\n` starting this one is part of that break. */
  let afterCr = false;
  /** Where the chunk holds the word next, at or after the line being ended (undefined: not looked for in this chunk). */
  let hit: number | undefined;
  /** Whether the first KIND_WITHIN bytes of the line ending at `end` hold the word. */
  const holdsCheckpoint = (end: number, chunk: Buffer, chunkStart: number): boolean => {
    // A line begun in an earlier chunk: its kept first bytes and this chunk's.
    if (head !== undefined || lineStart < chunkStart) return headOf({ start: lineStart, end, line }, chunk, chunkStart, head).includes(CHECKPOINT);
    // A line within the chunk: one search of the chunk serves every line up to the word (most
    // lines hold none), so no line makes a view of its bytes.
    const from = lineStart - chunkStart;
    if (hit === undefined || (hit !== -1 && hit < from)) hit = chunk.indexOf(CHECKPOINT, from);
    return hit !== -1 && hit + CHECKPOINT.length <= Math.min(end - chunkStart, from + KIND_WITHIN);
  };
  const endLine = (end: number, chunk: Buffer, chunkStart: number) => {
    if (scan.lines !== undefined && end > lineStart) {
      if (scan.lines.length >= maxLines) scan.lines = undefined;
      else {
        // A line within this read is looked at where it is; one begun in an earlier read, in its kept first bytes.
        const counted =
          head === undefined && lineStart >= chunkStart
            ? libraryIdAndSeq(chunk, lineStart - chunkStart, Math.min(end, lineStart + KIND_WITHIN) - chunkStart)
            : libraryIdAndSeq(headOf({ start: lineStart, end, line }, chunk, chunkStart, head));
        scan.lines.push(counted === undefined ? { start: lineStart, end, line } : { line, id: counted.id, seq: counted.seq });
      }
    }
    if (line === 1) scan.first = { start: lineStart, end, line };
    else if (previousStart !== -1 && end > lineStart && holdsCheckpoint(end, chunk, chunkStart)) {
      const place: LinePlace = { start: lineStart, end, line };
      const previous: LinePlace = { start: previousStart, end: previousEnd, line: previousLine };
      scan.candidates.push({ place, previous, head: Buffer.from(headOf(place, chunk, chunkStart, head)) });
    }
    if (end > lineStart) {
      previousStart = lineStart;
      previousEnd = end;
      previousLine = line;
    }
    head = undefined;
    line += 1;
  };
  for (let position = from?.size ?? 0; position < size; ) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    tail = bytesRead >= SCAN_TAIL_BYTES ? Buffer.from(chunk.subarray(bytesRead - SCAN_TAIL_BYTES)) : Buffer.concat([tail, chunk]).subarray(-SCAN_TAIL_BYTES);
    const chunkStart = position;
    hit = undefined;
    position += bytesRead;
    let at = 0;
    if (afterCr) {
      afterCr = false;
      if (chunk[0] === LF) lineStart = chunkStart + (at = 1);
    }
    let nextLf = chunk.indexOf(LF, at);
    let nextCr = chunk.indexOf(CR, at);
    while (nextLf !== -1 || nextCr !== -1) {
      const cut = nextCr === -1 || (nextLf !== -1 && nextLf < nextCr) ? nextLf : nextCr;
      endLine(chunkStart + cut, chunk, chunkStart);
      at = cut + 1;
      if (chunk[cut] === CR) {
        if (at === chunk.length) afterCr = true;
        else if (chunk[at] === LF) at += 1;
      }
      lineStart = chunkStart + at;
      if (nextLf !== -1 && nextLf < at) nextLf = chunk.indexOf(LF, at);
      if (nextCr !== -1 && nextCr < at) nextCr = chunk.indexOf(CR, at);
    }
    // The line goes on in the next chunk: its first bytes are kept for the check.
    if (lineStart < position) {
      const have = head?.length ?? 0;
      if (have < KIND_WITHIN) {
        const from = Math.max(lineStart, chunkStart) - chunkStart;
        const more = chunk.subarray(from, Math.min(chunk.length, from + KIND_WITHIN - have));
        head = head === undefined ? Buffer.from(more) : Buffer.concat([head, more]);
      }
    }
  }
  // The file read to its end, the last line ended by a `\n` (not a `\r`, which a `\n` appended next would join).
  if (lineStart === size && !afterCr && tail.length > 0 && tail[tail.length - 1] === LF) {
    const previous = previousStart === -1 ? undefined : { start: previousStart, end: previousEnd, line: previousLine };
    scan.end = { size, line, previous, first: scan.first, candidates: scan.candidates, tail };
  }
  // The last line, when no break ends it (no empty line after a final break).
  if (lineStart < size) endLine(size, Buffer.alloc(0), size);
  return scan;
}

const SCHEMA_VERSION_KEY = Buffer.from('{"$schemaVersion":');
const ID_KEY = Buffer.from(',"id":"');
const PARENT_ID_KEY = Buffer.from(',"parentId":');
const NULL = Buffer.from('null');
const SEQ_KEY = Buffer.from(',"seq":');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;

/** Whether `bytes` holds `word` at `at`, before `end` (compared in JS: a call into the buffer's binding costs more for words this short). */
function holdsAt(bytes: Uint8Array, word: Uint8Array, at: number, end: number): boolean {
  if (at + word.length > end) return false;
  for (let index = 0; index < word.length; index++) if (bytes[at + index] !== word[index]) return false;
  return true;
}

const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;

/** The end of a JSON string's printable ASCII characters without escapes from `at` (its closing quote), or -1. */
function plainStringEnd(bytes: Uint8Array, at: number, end: number): number {
  for (let index = at; index < end; index++) {
    const byte = bytes[index]!;
    if (byte === QUOTE) return index;
    if (byte === BACKSLASH || byte < 0x20 || byte > 0x7e) return -1;
  }
  return -1;
}

/**
 * The `id` and `seq` of an entry from the beginning of its line, when it begins exactly as the
 * library writes an entry: `{"$schemaVersion":N,"id":"…","parentId":null|"…","seq":N,` (or `}`),
 * ids of printable ASCII without escapes, and a `seq` a positive safe integer. Anything else
 * (another order, escapes, spaces, a byte order mark): undefined, and the line is parsed instead.
 * Only the beginning is read: a line that goes on as no JSON, or that repeats its `id` key later
 * (which a parse would take instead), counts with the id at its beginning.
 */
export function libraryIdAndSeq(head: Buffer, from = 0, end = head.length): { id: string; seq: number } | undefined {
  if (!holdsAt(head, SCHEMA_VERSION_KEY, from, end)) return undefined;
  let at = from + SCHEMA_VERSION_KEY.length;
  if (!isDigit(head[at])) return undefined;
  while (at < end && isDigit(head[at])) at++;
  if (!holdsAt(head, ID_KEY, at, end)) return undefined;
  const idStart = at + ID_KEY.length;
  const idEnd = plainStringEnd(head, idStart, end);
  if (idEnd === -1) return undefined;
  at = idEnd + 1;
  if (!holdsAt(head, PARENT_ID_KEY, at, end)) return undefined;
  at += PARENT_ID_KEY.length;
  if (holdsAt(head, NULL, at, end)) at += NULL.length;
  else {
    if (head[at] !== QUOTE || at >= end) return undefined;
    const parentEnd = plainStringEnd(head, at + 1, end);
    if (parentEnd === -1) return undefined;
    at = parentEnd + 1;
  }
  if (!holdsAt(head, SEQ_KEY, at, end)) return undefined;
  at += SEQ_KEY.length;
  const seqStart = at;
  // No leading zero (JSON has none), and at most 15 digits: a safe integer.
  if (at >= end || !isDigit(head[at]) || head[at] === 0x30) return undefined;
  let seq = 0;
  while (at < end && isDigit(head[at])) seq = seq * 10 + (head[at++]! - 0x30);
  if (at - seqStart > 15 || at >= end || (head[at] !== COMMA && head[at] !== CLOSE_BRACE)) return undefined;
  // Printable ASCII: its latin1 decoding is the string JSON.parse would give.
  return { id: head.toString('latin1', idStart, idEnd), seq };
}

/** The first KIND_WITHIN bytes of the line at `place`, from the bytes kept of earlier chunks and this one. */
function headOf(place: LinePlace, chunk: Buffer, chunkStart: number, head: Buffer | undefined): Buffer {
  const from = Math.max(place.start, chunkStart) - chunkStart;
  const own = chunk.subarray(from, Math.min(place.end - chunkStart, from + KIND_WITHIN - (head?.length ?? 0)));
  return head === undefined ? own : Buffer.concat([head, own]);
}
