import { lstat, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isSafeBackupFileName, type ReadClaudeCodeFileBackup } from '../../interop/claude-code/index.js';

/** Largest backup read: plans are text, and a bigger file is not a plan. */
const MAX_BACKUP_BYTES = 8 * 1024 * 1024;

/**
 * Claude Code's file checkpoint folder for a session file in `<claude dir>/projects/<project>/`:
 * `<claude dir>/file-history`, when it exists; else undefined.
 */
export async function inferFileHistoryDir(sessionPath: string): Promise<string | undefined> {
  const projects = dirname(dirname(sessionPath));
  if (basename(projects) !== 'projects') return undefined;
  const dir = join(dirname(projects), 'file-history');
  try {
    return (await stat(dir)).isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads plan file backups from `<dir>/<sessionId>/<backupFileName>`. Names that are not plain file
 * names (a `/`, `..`) are refused, as are anything but regular files (a symlink is not followed)
 * and files over 8 MiB; each refusal throws a sentence the reader turns into a warning.
 */
export function fileHistoryBackupReader(dir: string): ReadClaudeCodeFileBackup {
  return async ({ sessionId, backupFileName }) => {
    if (!isSafeBackupFileName(sessionId) || !isSafeBackupFileName(backupFileName)) {
      throw new Error(`the session id ${JSON.stringify(sessionId.slice(0, 80))} or backup name ${JSON.stringify(backupFileName.slice(0, 80))} is not a plain file name`);
    }
    const path = join(dir, sessionId, backupFileName);
    let info;
    try {
      info = await lstat(path);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') throw new Error(`${path} does not exist (Claude Code removes old file history)`);
      throw error;
    }
    if (!info.isFile()) throw new Error(`${path} is not a regular file`);
    if (info.size > MAX_BACKUP_BYTES) throw new Error(`${path} holds ${info.size} bytes, more than a plan (${MAX_BACKUP_BYTES})`);
    return readFile(path, 'utf8');
  };
}
