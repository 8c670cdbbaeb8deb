import { realpath } from 'node:fs';
import { lstat, readlink } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { ConfigurationError } from '../../errors/configuration-error.js';

/**
 * Checks that a session's transcript path names a file of that very name, not another session's:
 * on a case-insensitive file system (macOS, Windows) `Abc.jsonl` opens `abc.jsonl`, and a link
 * may point anywhere; either way two sessions would share one transcript, each reading (and
 * appending to) the other's history. A missing file passes: it is created under its own name. A
 * link that points nowhere is judged by the name it points to: opening it to append would create
 * that file, under another session's name.
 * @throws ConfigurationError naming both names and the fix.
 */
export async function assertOwnSessionFile(file: string, sessionId: string): Promise<void> {
  const real = await realName(file);
  if (real === undefined || basename(real) === basename(file)) return;
  throw new ConfigurationError(
    `The transcript of session "${sessionId}", ${file}, is the file ${real}: another session's name (one that differs only in letter case on a case-insensitive file system, or a link). ` +
      'Nothing was read or written. Use session ids that differ in more than letter case (e.g. generated ids, or lower-case ones), and no links between transcripts.',
  );
}

/** Whether `file` is missing or a file of that very name (see {@link assertOwnSessionFile}). */
export async function isOwnSessionFile(file: string): Promise<boolean> {
  const real = await realName(file);
  return real === undefined || basename(real) === basename(file);
}

/** Links followed by hand at most, as the OS does (Linux's limit): a longer chain is a loop. */
const MAX_LINKS = 40;

/**
 * The file's path as stored on disk, links resolved; for a link that points nowhere, the path it
 * points to (what opening it with O_CREAT would create); undefined when there is nothing there.
 */
async function realName(file: string): Promise<string | undefined> {
  try {
    // The native call returns the name as stored on disk (its letter case too), links resolved.
    return await new Promise<string>((resolve, reject) => realpath.native(file, (error, path) => (error ? reject(error) : resolve(path))));
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return danglingTarget(file);
    throw error;
  }
}

/** Where a chain of links from `file` ends when its end does not exist; undefined when `file` is no link. */
async function danglingTarget(file: string): Promise<string | undefined> {
  let path = file;
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    let isLink: boolean;
    try {
      isLink = (await lstat(path)).isSymbolicLink();
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return path === file ? undefined : path;
      throw error;
    }
    if (!isLink) return path === file ? undefined : path;
    path = resolve(dirname(path), await readlink(path));
  }
  return path;
}
