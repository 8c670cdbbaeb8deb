import type { ToolStateStore } from '../../tools/types.js';

/**
 * `agent.toolState` key prefix of read records: `workspace.read:<realPath>` → `{ mtimeMs, sha256 }`.
 * One key per file, because the agent journals every `set` with its whole value.
 */
export const READ_STATE_KEY_PREFIX = 'workspace.read:';
/**
 * `agent.toolState` key prefix of the outside path `checkPermissions` asked about for one call:
 * `workspace.outside-check:<toolUseId>` → real path (`null` once used).
 */
export const OUTSIDE_CHECK_KEY_PREFIX = 'workspace.outside-check:';

/** What the agent saw when it last read (or wrote) a file. */
export interface FileReadRecord {
  /** Modification time, in milliseconds. */
  mtimeMs: number;
  /** SHA-256 of the whole content, hex. */
  sha256: string;
}

/** The read record of a file, by real path. */
export function getReadRecord(store: ToolStateStore, realPath: string): FileReadRecord | undefined {
  return store.get<FileReadRecord | null>(READ_STATE_KEY_PREFIX + realPath) ?? undefined;
}

/** Remembers that the agent has seen this exact version of a file. */
export function setReadRecord(store: ToolStateStore, realPath: string, record: FileReadRecord): void {
  store.set(READ_STATE_KEY_PREFIX + realPath, { mtimeMs: record.mtimeMs, sha256: record.sha256 });
}

/** Remembers that `checkPermissions` asked the host about this outside real path for this call. */
export function recordOutsideCheck(store: ToolStateStore, toolUseId: string, realPath: string): void {
  store.set(OUTSIDE_CHECK_KEY_PREFIX + toolUseId, realPath);
}

/** The outside real path `checkPermissions` asked about for this call; cleared once taken. */
export function takeOutsideCheck(store: ToolStateStore, toolUseId: string): string | undefined {
  const checked = store.get<string | null>(OUTSIDE_CHECK_KEY_PREFIX + toolUseId) ?? undefined;
  if (checked !== undefined) store.set(OUTSIDE_CHECK_KEY_PREFIX + toolUseId, null);
  return checked;
}

/** Message when a file was never read, or changed since. */
export function staleMessage(record: FileReadRecord | undefined, current: { mtimeMs: number; sha256?: string }): string | undefined {
  if (!record) return 'File has not been read yet. Read it first before writing to it.';
  if (record.mtimeMs !== current.mtimeMs || (current.sha256 !== undefined && record.sha256 !== current.sha256)) {
    return 'File has been modified since it was last read (by the user, a formatter or another tool). Read it again before writing to it.';
  }
  return undefined;
}
