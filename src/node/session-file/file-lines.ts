import type { ReadAt } from './prefetched-reads.js';
import { LINE_CHUNK_BYTES, Utf8LineSplitter } from '../fs/utf8-line-splitter.js';

/** Bytes decoded at a time (below V8's large strings: see `LINE_CHUNK_BYTES`). */
export const FILE_LINE_CHUNK_BYTES = LINE_CHUNK_BYTES;

/**
 * Bytes read at a time: sixteen pieces to decode. Each read is a trip through libuv's thread pool
 * (tens of microseconds of CPU on top of the copy, and the loop waits for it), so a transcript is
 * read in a few large reads and decoded in small pieces.
 */
export const FILE_READ_BYTES = 16 * FILE_LINE_CHUNK_BYTES;

/**
 * The lines of the first `size` bytes of a file, as `readline` gives them: split at `\n`, `\r\n`
 * and a lone `\r`, no empty line after a final line break, decoded as UTF-8 with U+FFFD for
 * invalid bytes (a character split between two reads is decoded whole). Yields them in batches,
 * one per read, and holds at most the longest line and one read in memory. Reads only the first
 * `size` bytes (what a later append adds is not read); a file cut shorter meanwhile ends early.
 * @param chunkBytes - bytes decoded at a time (tests use tiny ones to put every boundary everywhere).
 * @param start - where to start: the first byte of a line (the lines before it are not read).
 * @param readBytes - bytes per read (tests use tiny ones too).
 * @param onLastByte - called with the `size`th byte once it is read (not when the file was cut shorter).
 */
export async function* fileLines(
  handle: ReadAt,
  size: number,
  chunkBytes = FILE_LINE_CHUNK_BYTES,
  start = 0,
  readBytes = FILE_READ_BYTES,
  onLastByte?: (byte: number) => void,
): AsyncGenerator<string[]> {
  const splitter = new Utf8LineSplitter('any');
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(readBytes, size - start)));
  for (let position = start; position < size; ) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) break;
    position += bytesRead;
    if (position === size) onLastByte?.(buffer[bytesRead - 1]!);
    let lines: string[] = [];
    for (let at = 0; at < bytesRead; at += chunkBytes) {
      const ended = splitter.push(buffer.subarray(at, Math.min(at + chunkBytes, bytesRead)));
      // (One array per read: most pieces end a few dozen lines.)
      if (ended.length > 0) lines = lines.length === 0 ? ended : lines.concat(ended);
    }
    if (lines.length > 0) yield lines;
  }
  const last = splitter.end();
  if (last.length > 0) yield last;
}
