import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { readIfRegular } from '../fs/read-regular-file.js';

/** Read-only and never waited on: a FIFO opens at once, without a writer (links are followed). */
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The UTF-8 text of the file at `path` (a link followed), or `'not-a-file'` when a FIFO, a
 * socket, a device or a directory holds the name: read as a file, a FIFO would wait for a
 * writer forever (holding a thread of the pool). A session's lock and lease files are read so.
 * @throws the open's error (`ENOENT` when nothing is there).
 */
export async function readWithoutWaiting(path: string): Promise<string | 'not-a-file'> {
  return (await readIfRegular(path, FLAGS))?.text ?? 'not-a-file';
}

/** {@link readWithoutWaiting}, synchronous (for an `exit` handler). */
export function readWithoutWaitingSync(path: string): string | 'not-a-file' {
  const fd = openSync(path, FLAGS);
  try {
    if (!fstatSync(fd).isFile()) return 'not-a-file';
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
