import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { RestoreFileArgs } from '../../tools/types.js';
import { makeDirectories } from './make-directories.js';
import { openCheckedFile } from './open-checked-file.js';
import { replaceFile, writeOverFile } from './replace-file.js';
import { writeAll } from './update-file.js';
import { resolveRealPath } from './workspace-boundary.js';

async function writeBack(real: string, data: Buffer): Promise<void> {
  // Nothing is created through a directory swapped for a link since the file was written.
  await makeDirectories(path.dirname(real), real);
  // The directories must still lead where the file was written (no link swapped in since).
  if ((await resolveRealPath(real)) !== real) throw new Error(`the directories of ${real} lead elsewhere now; refusing to write through them.`);
  const stat = await lstatIfAny(real);
  if (stat && !stat.isFile()) throw new Error(`${real} is no longer a regular file; it was left as it is.`);
  // A file that was gone is created only if still nothing is there.
  if (!stat) {
    await replaceFile(real, data, { exclusive: true });
    return;
  }
  // Else a new file takes its place whole (a crash leaves the file before or after, never torn),
  // or, where it must be (hard links: every name gets the earlier content again), it is written
  // in place: see writeOverFile.
  await writeOverFile(real, data, stat, () => writeInPlace(real, data));
}

async function writeInPlace(real: string, data: Buffer): Promise<Stats> {
  const opened = await openCheckedFile(real, 'update');
  if (!opened.ok) throw new Error(opened.message);
  try {
    await writeAll(opened.handle, data);
    await opened.handle.sync();
    return await opened.handle.stat();
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
