import { closeSync, openSync, readSync } from 'node:fs';

const KEPT_BYTES = 16 * 1024;

/** Reused by every read; grown for a file that does not fit (a `/proc/stat` of a machine with many processors, a long `environ`). */
let buffer = Buffer.allocUnsafe(KEPT_BYTES);

/**
 * Reads a small `/proc` file whole, as latin1 text, synchronously, into one buffer kept for every
 * call. `readFileSync` allocates 64 KiB for each file that reports a size of 0 (as every `/proc`
 * file does), which cost about twice the read itself, and a Bash call reads several of them.
 * The text is copied out before returning, so no caller sees the buffer.
 * @throws as `openSync` does (`ENOENT` for a process that is gone).
 */
export function readProcText(file: string): string {
  const fd = openSync(file, 'r');
  try {
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const larger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(larger, 0, 0, length);
        buffer = larger;
      }
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    const text = buffer.toString('latin1', 0, length);
    // A process's environment may be megabytes: not kept for the next read.
    if (buffer.length > 16 * KEPT_BYTES) buffer = Buffer.allocUnsafe(KEPT_BYTES);
    return text;
  } finally {
    closeSync(fd);
  }
}
