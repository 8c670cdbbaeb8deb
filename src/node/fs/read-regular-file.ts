import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { readOpenFile } from './read-open-file.js';
import { readUnsizedFile } from './read-unsized-file.js';

/** Not followed, and never waited on: a link fails the open (`ELOOP`), a FIFO opens without waiting for a writer. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * The UTF-8 text of the regular file at `path`, opened without following a final symbolic link
 * and without waiting on a FIFO; checked with `fstat` on the open handle, so what is read is what
 * was checked. Undefined when nothing is there, or when a directory, FIFO, socket or device holds
 * the name.
 * @throws the open's error otherwise: `ELOOP` for a symbolic link (the caller says what a link means).
 */
export async function readRegularFile(path: string): Promise<string | undefined> {
  try {
    return (await readIfRegular(path, READ_FLAGS))?.text;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ENOENT' || code === 'EISDIR') return undefined;
    throw error;
  }
}

/**
 * The UTF-8 text of the file opened at `path` with `flags`, when the open handle is a regular
 * file (checked with `fstat`, so what is read is what was checked); undefined when a directory,
 * FIFO, socket or device holds the name. Give `O_NONBLOCK` so that a FIFO does not wait for a writer.
 * @throws the open's error.
 */
export async function readIfRegular(path: string, flags: number): Promise<{ text: string } | undefined> {
  const handle = await open(path, flags);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return undefined;
    return { text: await readWhole(handle, stats.size) };
  } finally {
    await handle.close();
  }
}

/**
 * The UTF-8 text of the open file from its start, as `handle.readFile('utf8')` reads it (the
 * `size` bytes `fstat` gave, or up to the end when it gave 0), without the second `fstat` that
 * makes: one trip through libuv's thread pool less for every lock, lease, plan, memory and
 * `.gitignore` file read.
 * @throws `EAGAIN` for a size-0 file whose read would wait (opened with `O_NONBLOCK`), as `readFile` does.
 */
async function readWhole(handle: FileHandle, size: number): Promise<string> {
  if (size > 0) return (await readOpenFile(handle, size)).toString('utf8');
  const read = await readUnsizedFile(handle, Number.POSITIVE_INFINITY);
  if (typeof read === 'string') throw Object.assign(new Error('EAGAIN: resource temporarily unavailable, read'), { code: 'EAGAIN' });
  return read.toString('utf8');
}

/** Whether `error` is the `ELOOP` of {@link readRegularFile} meeting a symbolic link. */
export function isLinkRefusal(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ELOOP';
}
