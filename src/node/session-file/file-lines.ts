import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/**
 * Bytes read and decoded at a time. V8 puts a string of 128 KiB or more in its large-object
 * space, and making one is slow: a 2.7 MB transcript decoded in 256 KiB pieces took 9.5 ms on
 * Node 20, in 64 KiB pieces 0.45 ms (bench/README.md, nineteenth round).
 */
export const FILE_LINE_CHUNK_BYTES = 64 * 1024;

const LINE_BREAK = /\r\n|\n|\r/;

/**
 * The position of the last line break of `text` at or before `end` (a `\r\n` counts by its
 * `\n`), or -1.
 */
function lastBreak(text: string, end: number, hasReturn: boolean): number {
  // (lastIndexOf reads a negative position as 0.)
  if (end < 0) return -1;
  const newline = text.lastIndexOf('\n', end);
  if (!hasReturn) return newline;
  return Math.max(newline, text.lastIndexOf('\r', end));
}

/** `text`, which ends with a line break or at the end of the file, as its lines. */
function splitLines(text: string, hasReturn: boolean): string[] {
  const lines = hasReturn ? text.split(LINE_BREAK) : text.split('\n');
  // What follows a final line break is not a line.
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The lines of the first `size` bytes of a file, as `readline` gives them: split at `\n`, `\r\n`
 * and a lone `\r`, no empty line after a final line break, decoded as UTF-8 with U+FFFD for
 * invalid bytes (a character split between two reads is decoded whole). Yields them in batches,
 * one per read, and holds at most the longest line and one read in memory. Reads only the first
 * `size` bytes (what a later append adds is not read); a file cut shorter meanwhile ends early.
 * @param chunkBytes - bytes per read (tests use tiny ones to put every boundary everywhere).
 */
export async function* fileLines(handle: FileHandle, size: number, chunkBytes = FILE_LINE_CHUNK_BYTES): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(chunkBytes, size)));
  let position = 0;
  /** The part of a line not yet ended, from earlier reads. */
  let rest = '';
  let restHasReturn = false;
  while (position < size) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const piece = decoder.write(buffer.subarray(0, bytesRead));
    const hasReturn = piece.includes('\r');
    // A `\r` ending the read may be the first half of a `\r\n`: it waits for the next read.
    const end = hasReturn && position < size && piece.endsWith('\r') ? piece.length - 2 : piece.length - 1;
    const cut = lastBreak(piece, end, hasReturn);
    if (cut < 0) {
      rest += piece;
      restHasReturn ||= hasReturn;
      continue;
    }
    const lines = splitLines(rest + piece.slice(0, cut + 1), restHasReturn || hasReturn);
    rest = piece.slice(cut + 1);
    restHasReturn = hasReturn && rest.includes('\r');
    if (lines.length > 0) yield lines;
  }
  rest += decoder.end();
  if (rest !== '') {
    const lines = splitLines(rest, rest.includes('\r'));
    if (lines.length > 0) yield lines;
  }
}
