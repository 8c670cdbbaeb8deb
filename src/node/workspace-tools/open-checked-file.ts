import { constants, readlinkSync } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** How {@link openCheckedFile} opens. */
export type OpenMode = 'read' | 'update' | 'create';

const FLAGS: Record<OpenMode, number> = {
  // O_NONBLOCK keeps a FIFO from blocking the open; the caller then refuses anything not a regular file.
  read: constants.O_RDONLY | NOFOLLOW | NONBLOCK,
  update: constants.O_RDWR | NOFOLLOW | NONBLOCK,
  create: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW,
};

/**
 * Where an open file really is: on Linux exactly, from `/proc/self/fd`; elsewhere the real path
 * of `openedPath` when it still names the same file (device and inode), else `undefined`.
 */
export async function realPathOfOpenFile(handle: FileHandle, openedPath: string): Promise<string | undefined> {
  if (process.platform === 'linux') {
    try {
      // Synchronous: /proc answers from the kernel's own tables, never from the file's file
      // system (it cannot hang on a network mount), and a trip through libuv's thread pool costs
      // more than the call.
      return readlinkSync(`/proc/self/fd/${handle.fd}`);
    } catch {
      // /proc not mounted: fall through to the inode comparison
    }
  }
  try {
    const [opened, real] = await Promise.all([handle.stat(), fs.realpath(openedPath)]);
    const named = await fs.stat(real);
    return opened.dev === named.dev && opened.ino === named.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

/** The outcome of {@link openCheckedFile}: an open handle, or an errno code / a refusal. */
export type CheckedOpen =
  | { ok: true; handle: FileHandle }
  | { ok: false; code: string; message: string };

function errnoCode(error: unknown): string {
  return (typeof error === 'object' && error !== null && (error as NodeJS.ErrnoException).code) || 'EUNKNOWN';
}

/**
 * Opens an already-authorized real path without following a symbolic link in its last
 * component, then checks that the file actually opened is the one at `realPath` (a directory on
 * the way could have been swapped for a link in between). On a mismatch the handle is closed, a
 * file this call just created is removed again, and the result is a refusal.
 * @param accept - which real paths of the opened file are acceptable.
 * @default accept: only `realPath` itself
 */
export async function openCheckedFile(
  realPath: string,
  mode: OpenMode,
  accept: (openedRealPath: string) => boolean = (opened) => opened === realPath,
): Promise<CheckedOpen> {
  let handle: FileHandle;
  try {
    handle = await fs.open(realPath, FLAGS[mode], 0o666);
  } catch (error) {
    const code = errnoCode(error);
    const message =
      code === 'ELOOP'
        ? `${realPath} is a symbolic link now (it was not when the path was checked); refusing to follow it.`
        : `Cannot open ${realPath}: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, code, message };
  }
  const opened = await realPathOfOpenFile(handle, realPath);
  if (opened !== undefined && accept(opened)) return { ok: true, handle };
  await handle.close();
  if (mode === 'create' && opened !== undefined) await fs.unlink(opened).catch(() => undefined);
  return {
    ok: false,
    code: 'ESWAPPED',
    message: `Refused: ${realPath} changed while it was being opened (a directory on the way was replaced, now leading to ${opened ?? 'an unknown place'}).`,
  };
}
