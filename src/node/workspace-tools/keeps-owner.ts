import type { Stats } from 'node:fs';

/** The ids this process creates and owns files with (undefined where the platform has none, Windows). */
export interface ProcessIds {
  uid: number;
  gid: number;
  groups: readonly number[];
}

function currentIds(): ProcessIds | undefined {
  if (typeof process.geteuid !== 'function' || typeof process.getegid !== 'function') return undefined;
  return { uid: process.geteuid(), gid: process.getegid(), groups: typeof process.getgroups === 'function' ? process.getgroups() : [] };
}

/**
 * Whether a new file made by this process can take `file`'s place with the same owner and group:
 * root can give it any; another user only its own user id and a group it belongs to. When it
 * cannot (a file of another user, writable through its group or for everyone), the file must be
 * written in place: a replacement would belong to this process's user, and the file's owner could
 * lose access to it (an agent running as root in a container, editing a mounted user's files).
 * Always true where files have no owner ids (Windows).
 * @param ids - this process's ids (the current ones by default; a test passes others).
 */
export function keepsOwner(file: Pick<Stats, 'uid' | 'gid'>, ids: ProcessIds | undefined = currentIds()): boolean {
  if (ids === undefined || ids.uid === 0) return true;
  return file.uid === ids.uid && (file.gid === ids.gid || ids.groups.includes(file.gid));
}
