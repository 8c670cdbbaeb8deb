import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../fs/write-file-atomically.js';
import { keepsOwner } from './keeps-owner.js';
import { realPathOfOpenFile } from './open-checked-file.js';

/**
 * A file that cannot be replaced by a new one, though it may be written: its directory takes no
 * new file (not writable, immutable), the file is a mount point of its own (a file bind-mounted
 * into a container: `EBUSY`), or the new file could not be given its owner and group (a user
 * namespace that does not map them). Nothing was changed; the caller writes the file in place.
 */
export class CannotReplaceError extends Error {
  constructor(real: string, cause: unknown) {
    super(`${real} cannot be replaced by a new file (${cause instanceof Error ? cause.message : String(cause)}).`, { cause });
    this.name = 'CannotReplaceError';
  }
}

/**
 * Failures that say the file cannot be replaced here, not that writing it would fail: no space
 * (`ENOSPC`, `EDQUOT`) is not one of them, since writing in place then would lose the file.
 */
const CANNOT_REPLACE = new Set(['EACCES', 'EPERM', 'EBUSY', 'EXDEV']);

/** Options of {@link replaceFile}. */
export interface ReplaceFileOptions {
  /** The permission bits of the new file (those of the file it replaces). */
  mode?: number;
  /** Only when nothing is at the path (a file being created): `EEXIST` otherwise. */
  exclusive?: boolean;
  /**
   * The file this write replaces, as it was checked (opened, read, compared with the read
   * record): if another file has taken its place since (an editor saving by rename), the write is
   * refused rather than replacing that one.
   */
  replacing?: Stats;
  /**
   * The owner and group the new file gets (those of the file it replaces; see `keepsOwner` for
   * when this process can give them). Unset: the process's own.
   */
  owner?: { uid: number; gid: number };
}

/**
 * Puts `data` at the already-authorized real path `real` as a new file that replaces the current
 * one at once (see `writeFileAtomically`): a crash or kill -9 leaves the old content or the new,
 * never a truncated file. The temporary file must really be in `real`'s directory (a directory on
 * the way swapped for a link since the path was authorized is refused).
 * @returns the new file's status (its modification time, for the read record).
 * @throws CannotReplaceError when the file cannot be replaced here (nothing was changed): the
 * caller writes it in place. A new file (`exclusive`) never gets it.
 */
export async function replaceFile(real: string, data: Buffer, options: ReplaceFileOptions = {}): Promise<Stats> {
  let written: Stats | undefined;
  const { replacing, owner, ...rest } = options;
  await writeFileAtomically(real, data, {
    ...rest,
    check: async (handle, temporary) => {
      // The new file's status as written, when nothing changes it after (its owner as asked).
      let made: Stats | undefined;
      if (owner) {
        made = await handle.stat();
        if (made.uid !== owner.uid || made.gid !== owner.gid) {
          made = undefined;
          await handle.chown(owner.uid, owner.gid).catch((error: unknown) => {
            throw new CannotReplaceError(real, error);
          });
          // A change of owner can clear the set-user-ID and set-group-ID bits: the file's bits again.
          if (rest.mode !== undefined) await handle.chmod(rest.mode);
        }
      }
      if (replacing) {
        const now = await fs.lstat(real).catch(() => undefined);
        if (now?.ino !== replacing.ino || now.dev !== replacing.dev) throw new Error(`${real} was replaced by another file meanwhile; it was left as it is. Read it again.`);
      }
      if ((await realPathOfOpenFile(handle, temporary)) !== path.join(path.dirname(real), path.basename(temporary))) {
        throw new Error(`the directories of ${real} lead elsewhere now; refusing to write through them.`);
      }
      // (The checks above read the file's name and its directory: they change nothing of it.)
      written = made ?? (await handle.stat());
    },
  }).catch((error: unknown) => {
    const code = (error as { code?: unknown } | null)?.code;
    if (!rest.exclusive && typeof code === 'string' && CANNOT_REPLACE.has(code)) throw new CannotReplaceError(real, error);
    throw error;
  });
  return written!;
}

/**
 * Writes `data` over the existing file at `real`, as it was checked (`current`): as a new file that
 * replaces it whole, with its permission bits, owner and group (see {@link replaceFile}), or with
 * `writeInPlace` where a replacement would be wrong or cannot be made — a file with several hard
 * links (every name must see the change), another user's file this process could not give back
 * to them (see `keepsOwner`), a file that cannot be replaced here ({@link CannotReplaceError}).
 * A full disk is no reason to write in place: the write then fails and the file stays whole.
 * @returns the status of the file written.
 */
export async function writeOverFile(real: string, data: Buffer, current: Stats, writeInPlace: () => Promise<Stats>): Promise<Stats> {
  if (current.nlink > 1 || !keepsOwner(current)) return writeInPlace();
  try {
    return await replaceFile(real, data, { mode: current.mode & 0o7777, replacing: current, owner: { uid: current.uid, gid: current.gid } });
  } catch (error) {
    if (!(error instanceof CannotReplaceError)) throw error;
    return writeInPlace();
  }
}
