import type { BigIntStats } from 'node:fs';
import type { RememberedSessionFile } from './session-file-writer.js';

/**
 * The most entry ids kept of closed sessions' files in a process (16 to 32 bytes each as hashes,
 * `EntryIds`: 4 to 8 MB in all): the oldest file's go first, and a session with more is counted
 * again when next written.
 */
export const MAX_REMEMBERED_IDS = 250_000;

/**
 * The most closed sessions' files remembered in a process, whatever their ids: each takes 3 to 4 KB
 * besides its ids (its last bytes, the beginning of its last line, the table), so a process that
 * closes many sessions of few large entries stays within about 16 MB (the ids bound alone let
 * 250,000 sessions of one entry each be kept). The oldest file's go first. A load of a file
 * forgotten so counts it again, and is remembered again.
 */
export const MAX_REMEMBERED_FILES = 4_096;

/**
 * What closed writers knew of their files (revision, last id, ids), by the file's path, oldest
 * first: the next writer of the session takes it (see `SessionFileWriter.open`), whichever store
 * of the process opens it, so that an agent (and a store) made per request does not count the
 * whole transcript again at its first append. The writer takes it only while the file is the one
 * left behind.
 */
const remembered = new Map<string, RememberedSessionFile>();
let rememberedIds = 0;

/** Takes (and forgets) what was remembered of `file`. */
export function takeRememberedSessionFile(file: string): RememberedSessionFile | undefined {
  const state = remembered.get(file);
  if (state !== undefined) {
    remembered.delete(file);
    rememberedIds -= state.ids.size;
  }
  return state;
}

/** Whether `status` is the one `remembered` was left with: the same device, inode, size and status change time. */
export function isRememberedStatus(remembered: RememberedSessionFile, status: Pick<BigIntStats, 'dev' | 'ino' | 'size' | 'ctimeNs'>): boolean {
  return remembered.dev === status.dev && remembered.ino === status.ino && remembered.size === status.size && remembered.ctimeNs === status.ctimeNs;
}

/**
 * Whether what is remembered of `file` is of the file whose status is `stat` (same device, inode,
 * size and status change time): a load need not count that file for its next writer again.
 */
export function remembersSessionFile(file: string, stat: Pick<BigIntStats, 'dev' | 'ino' | 'size' | 'ctimeNs'>): boolean {
  const state = remembered.get(file);
  return state !== undefined && isRememberedStatus(state, stat);
}

/** Keeps `state` for the next writer of `file`, within the bounds (ids and files), dropping the oldest first. */
export function rememberSessionFile(file: string, state: RememberedSessionFile): void {
  takeRememberedSessionFile(file);
  if (state.ids.size > MAX_REMEMBERED_IDS) return;
  remembered.set(file, state);
  rememberedIds += state.ids.size;
  for (const oldest of remembered.keys()) {
    if (rememberedIds <= MAX_REMEMBERED_IDS && remembered.size <= MAX_REMEMBERED_FILES) break;
    takeRememberedSessionFile(oldest);
  }
}
