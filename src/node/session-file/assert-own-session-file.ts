import { realpath } from 'node:fs';
import { basename } from 'node:path';
import { ConfigurationError } from '../../errors/configuration-error.js';

/**
 * Checks that a session's transcript path names a file of that very name, not another session's:
 * on a case-insensitive file system (macOS, Windows) `Abc.jsonl` opens `abc.jsonl`, and a link
 * may point anywhere; either way two sessions would share one transcript, each reading (and
 * appending to) the other's history. A missing file passes: it is created under its own name.
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

/** The file's path as stored on disk, links resolved; undefined when it does not exist. */
async function realName(file: string): Promise<string | undefined> {
  try {
    // The native call returns the name as stored on disk (its letter case too), links resolved.
    return await new Promise<string>((resolve, reject) => realpath.native(file, (error, path) => (error ? reject(error) : resolve(path))));
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}
