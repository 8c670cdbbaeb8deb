import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sweepStaleTemporariesOnce } from './sweep-stale-temporaries.js';
import { syncDirectory } from './sync-directory.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Options of {@link writeFileAtomically}. */
export interface WriteFileAtomicallyOptions {
  /**
   * Flushes the new content to disk (`fsync`) before it takes the target's place, so a crash of
   * the machine right after leaves the old content or the new one, not an empty file; and the
   * directory after (best effort), so the new content is what survives once this resolves.
   * @default true
   */
  fsync?: boolean;
  /**
   * The exact permission bits of the file written (not reduced by the process's umask), e.g. the
   * bits of the file it replaces.
   * @default undefined (0o666 reduced by the umask, as a new file gets)
   */
  mode?: number;
  /**
   * Puts the file in place only when nothing is at `target` (`link`, which never replaces): an
   * existing target is left alone and the write fails with `EEXIST`.
   * @default false (the file replaces the target, if any: `rename`)
   */
  exclusive?: boolean;
  /**
   * Called with the open temporary file before it is put in place; throwing stops the write and
   * removes it (e.g. to check where the temporary file really is).
   */
  check?: (handle: FileHandle, temporary: string) => Promise<void>;
}

/**
 * Writes `data` to `target` so that a reader, a crash or a kill -9 sees the old file or the new
 * one whole, never a mix: the data goes to a temporary file in the same directory (so the rename
 * never crosses file systems; its name leaves the target's name out, so a target at the file-name
 * limit still has one), is flushed, then renamed over the target. A failed write removes the
 * temporary file; a kill -9 between the write and the rename can leave a `.tmp-…` file beside the
 * target, never a damaged target, and the first write of a process in a directory removes such
 * files there once they are an hour old (see `sweepStaleTemporariesOnce`). The file written is a new file: another name hard-linked to the
 * old one keeps the old content, and its owner is the process's user.
 */
export async function writeFileAtomically(target: string, data: string | Uint8Array, options: WriteFileAtomicallyOptions = {}): Promise<void> {
  await sweepStaleTemporariesOnce(dirname(target));
  const temporary = join(dirname(target), `.tmp-${randomBytes(8).toString('hex')}`);
  const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, options.mode ?? 0o666);
  try {
    try {
      // Created with at most `mode` (the umask may take bits away), so it is never more open than asked.
      if (options.mode !== undefined) await handle.chmod(options.mode);
      await handle.writeFile(data);
      if (options.fsync !== false) await handle.sync();
      await options.check?.(handle, temporary);
    } finally {
      await handle.close();
    }
    if (options.exclusive) await link(temporary, target);
    else await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  // Linked in place: the temporary name goes (a failure here leaves a stray name, not a bad target).
  if (options.exclusive) await unlink(temporary).catch(() => undefined);
  // The rename itself made durable: without it a crash of the machine can bring the old file back.
  if (options.fsync !== false) await syncDirectory(dirname(target));
}
