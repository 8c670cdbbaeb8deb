import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** The name of a temporary file `writeFileAtomically` makes: `.tmp-` and 16 hex digits. */
export const TEMPORARY_FILE_NAME = /^\.tmp-[0-9a-f]{16}$/;

/**
 * How old a temporary file must be before it counts as left behind. A write holds its temporary
 * file for milliseconds; one untouched for this long belongs to a process that died (kill -9,
 * a crash of the machine) between writing it and putting it in place.
 */
export const STALE_TEMPORARY_AGE_MS = 60 * 60 * 1000;

/** Directories swept by this process (each once; bounded, so a process writing everywhere stays small). */
const swept = new Set<string>();
const MAX_SWEPT_DIRECTORIES = 1024;

/**
 * Removes the temporary files of atomic writes that never finished (see
 * {@link TEMPORARY_FILE_NAME}, {@link STALE_TEMPORARY_AGE_MS}) from a directory, the first time this
 * process writes there. Best effort: a directory that cannot be read, or a file that cannot be
 * removed, is left as it is; a write never fails for it.
 */
export async function sweepStaleTemporariesOnce(directory: string, now: number = Date.now()): Promise<void> {
  if (swept.has(directory)) return;
  if (swept.size >= MAX_SWEPT_DIRECTORIES) swept.clear();
  swept.add(directory);
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return;
  }
  for (const name of names) {
    if (!TEMPORARY_FILE_NAME.test(name)) continue;
    const file = join(directory, name);
    try {
      const stat = await lstat(file);
      if (stat.isFile() && now - stat.mtimeMs >= STALE_TEMPORARY_AGE_MS) await unlink(file);
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
}
