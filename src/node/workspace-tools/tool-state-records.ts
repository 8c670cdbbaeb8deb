import type { ToolStateStore } from '../../tools/types.js';

/** `agent.toolState` key of the read records: `{ [realPath]: { mtimeMs, sha256 } }`. */
export const READ_STATE_KEY = 'workspace.reads';
/** `agent.toolState` key of the outside paths `checkPermissions` asked about: `{ [toolUseId]: realPath }`. */
export const OUTSIDE_CHECKS_KEY = 'workspace.outsideChecks';

const MAX_READ_RECORDS = 1000;
const MAX_OUTSIDE_CHECKS = 100;

/** What the agent saw when it last read (or wrote) a file. */
export interface FileReadRecord {
  /** Modification time, in milliseconds. */
  mtimeMs: number;
  /** SHA-256 of the whole content, hex. */
  sha256: string;
}

/** Sets `key` in a JSON record kept in tool state, newest last, dropping the oldest past `limit`. */
function putBounded<T>(store: ToolStateStore, stateKey: string, key: string, value: T | undefined, limit: number): void {
  const next: Record<string, T> = { ...(store.get<Record<string, T>>(stateKey) ?? {}) };
  delete next[key];
  if (value !== undefined) next[key] = value;
  const keys = Object.keys(next);
  for (const old of keys.slice(0, Math.max(0, keys.length - limit))) delete next[old];
  store.set(stateKey, next);
}

/** The read record of a file, by real path. */
export function getReadRecord(store: ToolStateStore, realPath: string): FileReadRecord | undefined {
  return store.get<Record<string, FileReadRecord>>(READ_STATE_KEY)?.[realPath];
}

/** Remembers that the agent has seen this exact version of a file. */
export function setReadRecord(store: ToolStateStore, realPath: string, record: FileReadRecord): void {
  putBounded(store, READ_STATE_KEY, realPath, record, MAX_READ_RECORDS);
}

/** Remembers that `checkPermissions` asked the host about this outside real path for this call. */
export function recordOutsideCheck(store: ToolStateStore, toolUseId: string, realPath: string): void {
  putBounded(store, OUTSIDE_CHECKS_KEY, toolUseId, realPath, MAX_OUTSIDE_CHECKS);
}

/** The outside real path `checkPermissions` asked about for this call, removed from state. */
export function takeOutsideCheck(store: ToolStateStore, toolUseId: string): string | undefined {
  const checked = store.get<Record<string, string>>(OUTSIDE_CHECKS_KEY)?.[toolUseId];
  if (checked !== undefined) putBounded<string>(store, OUTSIDE_CHECKS_KEY, toolUseId, undefined, MAX_OUTSIDE_CHECKS);
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
