import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

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
    if (!(await handle.stat()).isFile()) return undefined;
    return { text: await handle.readFile('utf8') };
  } finally {
    await handle.close();
  }
}

/** Whether `error` is the `ELOOP` of {@link readRegularFile} meeting a symbolic link. */
export function isLinkRefusal(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ELOOP';
}
