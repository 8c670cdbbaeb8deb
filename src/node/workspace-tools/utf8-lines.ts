import { StringDecoder } from 'node:string_decoder';

/**
 * Bytes decoded at a time. V8 makes a string of 128 KiB or more in its large-object space, about
 * 20 times slower per byte than a smaller one (see `FILE_LINE_CHUNK_BYTES`), so a large file is
 * decoded in pieces below that and never held as one string.
 */
const CHUNK_BYTES = 64 * 1024;

const LINE_BREAK = /\r?\n/;

/**
 * The lines of UTF-8 text as Grep splits it: at `\n`, with a `\r` right before it part of the
 * break (a lone `\r` is not one), and no empty line after a final break; invalid bytes decode to
 * U+FFFD as `buffer.toString('utf8')` decodes them. The same lines as
 * `bytes.toString('utf8').split(/\r?\n/)` without its last empty one, but no string of the whole
 * file is made: only a line of 128 KiB or more is a large string.
 * @param chunkBytes - bytes decoded at a time (tests use tiny ones to put every boundary everywhere).
 */
export function utf8Lines(bytes: Uint8Array, chunkBytes = CHUNK_BYTES): string[] {
  const decoder = new StringDecoder('utf8');
  const lines: string[] = [];
  /** The part of a line not yet ended, from earlier pieces. */
  let rest = '';
  for (let start = 0; start < bytes.length; start += chunkBytes) {
    const piece = decoder.write(bytes.subarray(start, Math.min(bytes.length, start + chunkBytes)));
    const cut = piece.lastIndexOf('\n');
    if (cut < 0) {
      rest += piece;
      continue;
    }
    // Up to and with its last break: the split ends with an empty text after it, dropped.
    const ended = (rest + piece.slice(0, cut + 1)).split(LINE_BREAK);
    ended.pop();
    for (const line of ended) lines.push(line);
    rest = piece.slice(cut + 1);
  }
  rest += decoder.end();
  if (rest !== '') lines.push(rest);
  return lines;
}
