import { constants } from 'node:fs';
import { open, unlink } from 'node:fs/promises';

/** Read-only and never waited on: a FIFO opens at once, without a writer (links are followed). */
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Deletes the file at `path` (a link followed) when it is a regular file holding exactly
 * `content` as UTF-8, as a lock's holder releases its lock file; leaves anything else where it
 * is. Its status is taken while it is read, and it is closed while it is deleted: three trips
 * through libuv's thread pool, where reading it whole and then deleting it took five.
 * @returns whether it deleted the file.
 * @throws the open's error (`ENOENT` when nothing is there), or the deletion's.
 */
export async function unlinkIfHolding(path: string, content: string): Promise<boolean> {
  const handle = await open(path, FLAGS);
  let closing: Promise<void> | undefined;
  try {
    const expected = Buffer.from(content, 'utf8');
    // One byte more than `content`: a longer file reads that many.
    const bytes = Buffer.allocUnsafe(expected.length + 1);
    const [status, read] = await Promise.allSettled([handle.stat(), handle.read(bytes, 0, bytes.length, 0)]);
    if (status.status === 'rejected') throw status.reason;
    // (A directory fails the read, a FIFO reads nothing: the status says what it is.)
    if (!status.value.isFile()) return false;
    if (read.status === 'rejected') throw read.reason;
    if (read.value.bytesRead !== expected.length || !bytes.subarray(0, expected.length).equals(expected)) return false;
    closing = handle.close();
    // (Awaited below; a failure is not left unhandled meanwhile.)
    closing.catch(ignore);
    await unlink(path);
    return true;
  } finally {
    await (closing ?? handle.close());
  }
}

function ignore(): void {}
