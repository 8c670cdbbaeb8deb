import fsCallbacks, { closeSync, constants, existsSync, readlinkSync, type Dirent } from 'node:fs';
import fs from 'node:fs/promises';

/** Opens without waiting on the event loop, giving the descriptor itself, which can be closed synchronously (a `FileHandle` closes through the thread pool). */
function openDescriptor(file: string, flags: number): Promise<number> {
  return new Promise((resolve, reject) => fsCallbacks.open(file, flags, (error, fd) => (error ? reject(error) : resolve(fd))));
}

/** What {@link listDirectory} found: the entries, or why there are none. */
export type DirectoryListing =
  | { ok: true; entries: Dirent<Buffer>[] }
  /** `gone`: removed meanwhile (nothing to report); `changed`: no longer the directory that was listed; else the error's code. */
  | { ok: false; reason: 'gone' | 'changed' | string };

/** Linux names an open descriptor's file under /proc/self/fd: the listing reads exactly what was opened. */
const HAS_PROC_FD = existsSync('/proc/self/fd');

function codeOf(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as NodeJS.ErrnoException).code : undefined;
  return typeof code === 'string' ? code : 'error';
}

/**
 * Lists a directory the walk found (names as raw bytes) only while it is still that directory:
 * one swapped for a symbolic link since it was listed, or reached through a parent swapped for
 * one, would list a place outside the searched root, by names never asked about. On Linux the
 * directory is opened (not following a final link), its real path read back from the open
 * descriptor and the descriptor itself listed; elsewhere the real path is checked after listing.
 * @param directory - its real path (the walk's root is real, and the walk follows no link).
 */
export async function listDirectory(directory: string): Promise<DirectoryListing> {
  let fd: number | undefined;
  try {
    let entries: Dirent<Buffer>[];
    if (HAS_PROC_FD) {
      fd = await openDescriptor(directory, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
      const opened = `/proc/self/fd/${fd}`;
      // Synchronous: /proc answers from the kernel's tables (it cannot hang on a network mount),
      // and a trip through libuv's thread pool costs more than the call, once per directory walked.
      if (readlinkSync(opened) !== directory) return { ok: false, reason: 'changed' };
      entries = await fs.readdir(opened, { withFileTypes: true, encoding: 'buffer' });
    } else {
      entries = await fs.readdir(directory, { withFileTypes: true, encoding: 'buffer' });
      if ((await fs.realpath(directory)) !== directory) return { ok: false, reason: 'changed' };
    }
    return { ok: true, entries };
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT') return { ok: false, reason: 'gone' };
    // A final link (O_NOFOLLOW) or a file where the directory was: not what was listed.
    if (code === 'ELOOP' || code === 'ENOTDIR') return { ok: false, reason: 'changed' };
    return { ok: false, reason: code };
  } finally {
    // Synchronous, as the readlink: closing a directory writes nothing back (no flush to wait
    // for, on a network or FUSE mount either), and saves a trip through the thread pool.
    if (fd !== undefined) closeSync(fd);
  }
}
