/**
 * `lines` as the UTF-8 bytes of a JSON Lines text: each line followed by `\n`, written straight
 * into one buffer. Joining the lines into one string first cost about 0.9 ms for two 100 KB
 * entries of text outside Latin-1 on Node 20: a string of 128 KiB or more is made in V8's
 * large-object space, and a two-byte string reaches that size at 64 Ki characters (the same
 * write through one buffer: about 80 µs).
 * @param lines - JSON texts (no line breaks in them).
 */
export function jsonLinesBytes(lines: readonly string[]): Buffer {
  let size = lines.length;
  for (const line of lines) size += Buffer.byteLength(line, 'utf8');
  const bytes = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const line of lines) {
    offset += bytes.write(line, offset, 'utf8');
    bytes[offset++] = 0x0a;
  }
  return bytes;
}
