import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { RestoreFileArgs } from '../../tools/types.js';
import { makeDirectories } from './make-directories.js';
import { openCheckedFile } from './open-checked-file.js';
import { keepsOwner } from './keeps-owner.js';
import { CannotReplaceError, replaceFile } from './replace-file.js';
import { writeAll } from './update-file.js';
import { resolveRealPath } from './workspace-boundary.js';

async function writeBack(real: string, data: Buffer): Promise<void> {
  // Nothing is created through a directory swapped for a link since the file was written.
  await makeDirectories(path.dirname(real), real);
  // The directories must still lead where the file was written (no link swapped in since).
  if ((await resolveRealPath(real)) !== real) throw new Error(`the directories of ${real} lead elsewhere now; refusing to write through them.`);
  const stat = await lstatIfAny(real);
  if (stat && !stat.isFile()) throw new Error(`${real} is no longer a regular file; it was left as it is.`);
  // A file with other names (hard links) is written in place, so that every name has the earlier
  // content again: a new file renamed over one name would leave the others as they are.
  if (stat && stat.nlink > 1) return await writeInPlace(real, data);
  // So is another user's file this process may write to but could not give back to them.
  if (stat && !keepsOwner(stat)) return await writeInPlace(real, data);
  // Else a new file takes its place whole (a crash leaves the file before or after, never torn),
  // with the same permission bits; a file that was gone is created only if still nothing is there.
  try {
    await replaceFile(real, data, stat ? { mode: stat.mode & 0o7777, replacing: stat, owner: { uid: stat.uid, gid: stat.gid } } : { exclusive: true });
  } catch (error) {
    // It cannot be replaced here (its owner could not be kept, its directory takes no new file, a
    // mount point): written in place.
    if (!(error instanceof CannotReplaceError)) throw error;
    await writeInPlace(real, data);
  }
}

async function writeInPlace(real: string, data: Buffer): Promise<void> {
  const opened = await openCheckedFile(real, 'update');
  if (!opened.ok) throw new Error(opened.message);
  try {
    await writeAll(opened.handle, data);
    await opened.handle.sync();
  } finally {
    await opened.handle.close();
  }
}

async function lstatIfAny(real: string): Promise<Stats | undefined> {
  try {
    return await fs.lstat(real);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function removeCreated(real: string): Promise<void> {
  const stat = await lstatIfAny(real);
  if (stat === undefined) return; // already gone
  if (!stat.isFile()) throw new Error(`${real} is no longer a regular file; it was left as it is.`);
  if ((await resolveRealPath(real)) !== real) throw new Error(`the directories of ${real} lead elsewhere now; refusing to remove through them.`);
  await fs.unlink(real);
}

/**
 * Write and Edit's `restoreFile`: writes a file's earlier bytes back to the real path recorded
 * when it was changed (never through a symbolic link swapped in since), or removes a file the
 * call created. The earlier bytes go to a new file that replaces the current one at once, with
 * its permission bits, so a crash or kill -9 mid-rewind leaves each file as it was or as restored,
 * never half-written; a file with several hard links is written in place instead, so that all its
 * names get the content back (a crash then can leave it torn), and so is another user's file this
 * process cannot give back to them (see `keepsOwner`) and a file that cannot be replaced here (see
 * `CannotReplaceError`); otherwise the new file keeps the owner and group. The file's read record goes stale by itself (its modification time changes), so
 * the model reads it again before the next edit.
 */
export async function restoreWorkspaceFile(args: RestoreFileArgs): Promise<void> {
  if (args.content === null) await removeCreated(args.path);
  else await writeBack(args.path, Buffer.from(args.content, 'base64'));
}
