import { LINE_CHUNK_BYTES, Utf8LineSplitter } from '../fs/utf8-line-splitter.js';

/**
 * The lines of UTF-8 text as Grep splits it: at `\n`, with a `\r` right before it part of the
 * break (a lone `\r` is not one), and no empty line after a final break; invalid bytes decode to
 * U+FFFD as `buffer.toString('utf8')` decodes them. The same lines as
 * `bytes.toString('utf8').split(/\r?\n/)` without its last empty one, but decoded in pieces below
 * V8's large strings (see `LINE_CHUNK_BYTES`): only a line of 128 KiB or more is a large string.
 * @param chunkBytes - bytes decoded at a time (tests use tiny ones to put every boundary everywhere).
 */
export function utf8Lines(bytes: Uint8Array, chunkBytes = LINE_CHUNK_BYTES): string[] {
  const splitter = new Utf8LineSplitter('lf');
  const lines: string[] = [];
  for (let start = 0; start < bytes.length; start += chunkBytes) {
    for (const line of splitter.push(bytes.subarray(start, Math.min(bytes.length, start + chunkBytes)))) lines.push(line);
  }
  for (const line of splitter.end()) lines.push(line);
  return lines;
}
