import fs from 'node:fs/promises';
import path from 'node:path';
import type { RestoreFileArgs } from '../../tools/types.js';
import { makeDirectories } from './make-directories.js';
import { openCheckedFile } from './open-checked-file.js';
import { writeAll } from './update-file.js';
import { resolveRealPath } from './workspace-boundary.js';

async function writeBack(real: string, data: Buffer): Promise<void> {
  // Nothing is created through a directory swapped for a link since the file was written.
  await makeDirectories(path.dirname(real), real);
  // The directories must still lead where the file was written (no link swapped in since).
  if ((await resolveRealPath(real)) !== real) throw new Error(`the directories of ${real} lead elsewhere now; refusing to write through them.`);
  let opened = await openCheckedFile(real, 'update');
  if (!opened.ok && opened.code === 'ENOENT') opened = await openCheckedFile(real, 'create');
  if (!opened.ok) throw new Error(opened.message);
  try {
    await writeAll(opened.handle, data);
  } finally {
    await opened.handle.close();
  }
}

async function removeCreated(real: string): Promise<void> {
  let stat;
  try {
    stat = await fs.lstat(real);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // already gone
    throw error;
  }
  if (!stat.isFile()) throw new Error(`${real} is no longer a regular file; it was left as it is.`);
  if ((await resolveRealPath(real)) !== real) throw new Error(`the directories of ${real} lead elsewhere now; refusing to remove through them.`);
  await fs.unlink(real);
}

/**
 * Write and Edit's `restoreFile`: writes a file's earlier bytes back to the real path recorded
 * when it was changed (never through a symbolic link swapped in since), or removes a file the
 * call created. The file's read record goes stale by itself (its modification time changes), so
 * the model reads it again before the next edit.
 */
export async function restoreWorkspaceFile(args: RestoreFileArgs): Promise<void> {
  if (args.content === null) await removeCreated(args.path);
  else await writeBack(args.path, Buffer.from(args.content, 'base64'));
}
