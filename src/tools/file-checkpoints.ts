import type { ToolStateStore } from './types.js';
import { argumentError, isObjectValue } from '../errors/argument-error.js';

/** `toolState` key of the checkpoint index (see {@link recordFileCheckpoint}). */
export const FILE_CHECKPOINT_INDEX_KEY = 'files.checkpoints';
/** `toolState` key prefix of one checkpoint: `files.checkpoint:<id>`. */
export const FILE_CHECKPOINT_KEY_PREFIX = 'files.checkpoint:';

/** Default bound of the content kept in checkpoints, per session (older checkpoints are dropped first). */
export const DEFAULT_CHECKPOINT_MAX_BYTES = 4 * 1024 * 1024;
/** Default bound of one file's kept content; a larger file's previous version is not kept (its rewind is refused). */
export const DEFAULT_CHECKPOINT_MAX_FILE_BYTES = 1024 * 1024;

/**
 * What a file was before a tool call changed it, kept in the session (tool state, so in the
 * store and the snapshot) for `agent.rewindFiles`.
 */
export interface FileCheckpoint {
  /** The order of the checkpoint in the session (ascending). */
  id: number;
  /** The call that changed the file. */
  toolUseId: string;
  /** The tool that changed it; it restores the file (its `restoreFile`). */
  toolName: string;
  /** The file, as the tool names it (the workspace tools: the real absolute path). */
  path: string;
  /** The previous content, base64; `null` when the file did not exist (rewinding deletes it). */
  before: string | null;
  /** The size of the previous content in bytes (0 when the file did not exist). */
  bytes: number;
  /**
   * Set when the previous content is not kept: `too-large` (above the per-file bound) or
   * `evicted` (dropped to keep the session within its bound).
   */
  omitted?: 'too-large' | 'evicted';
}

interface CheckpointIndex {
  /** The oldest id that may still be kept (ids below it were dropped). */
  first: number;
  /** The next checkpoint's id. */
  next: number;
  /** The oldest id that may still hold content (older ones are stubs or gone). */
  contentFrom: number;
  /** The decoded bytes the kept checkpoints hold. */
  bytes: number;
  /** Set once records were dropped: changes older than the oldest kept record are unknown. */
  forgotten?: boolean;
}

/** How many checkpoints (stubs included) a session keeps at most. */
export const MAX_FILE_CHECKPOINTS = 5000;

/** The bounds of {@link recordFileCheckpoint}. */
export interface FileCheckpointLimits {
  /** Total bytes of previous content kept per session. @default 4 MiB */
  maxBytes?: number;
  /** Bytes of one file's previous content kept at most. @default 1 MiB */
  maxFileBytes?: number;
}

function readIndex(store: ToolStateStore): CheckpointIndex {
  const index = store.get<Partial<CheckpointIndex>>(FILE_CHECKPOINT_INDEX_KEY);
  const int = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : fallback);
  if (!index || typeof index !== 'object') return { first: 1, next: 1, contentFrom: 1, bytes: 0 };
  const next = int(index.next, 1);
  // A tampered index cannot make a listing walk more than the record bound.
  const first = Math.min(Math.max(int(index.first, 1), next - MAX_FILE_CHECKPOINTS), next);
  return {
    first,
    next,
    contentFrom: Math.min(Math.max(int(index.contentFrom, first), first), next),
    bytes: typeof index.bytes === 'number' && index.bytes >= 0 ? index.bytes : 0,
    ...(index.forgotten === true ? { forgotten: true } : {}),
  };
}

function writeIndex(store: ToolStateStore, index: CheckpointIndex): void {
  store.set(FILE_CHECKPOINT_INDEX_KEY, { ...index, bytes: Math.max(0, index.bytes) });
}

function readCheckpoint(store: ToolStateStore, id: number): FileCheckpoint | undefined {
  const checkpoint = store.get<FileCheckpoint>(FILE_CHECKPOINT_KEY_PREFIX + id);
  return typeof checkpoint === 'object' && checkpoint !== null && checkpoint.id === id && typeof checkpoint.path === 'string' && typeof checkpoint.toolUseId === 'string'
    ? checkpoint
    : undefined;
}

function sizeOf(checkpoint: FileCheckpoint | undefined): number {
  return checkpoint?.before && typeof checkpoint.bytes === 'number' ? checkpoint.bytes : 0;
}

/**
 * Keeps a file's previous content before a tool changes it. Bounded: a file above
 * `maxFileBytes` is recorded without content (rewinding it is refused, with the reason); while
 * the total exceeds `maxBytes` the oldest contents are dropped, leaving stubs that still say a
 * change happened (so a rewind past them is refused rather than restoring a later version); past
 * {@link MAX_FILE_CHECKPOINTS} records the oldest stubs go too, and a rewind that reaches back
 * beyond what is kept is refused. Then `await agent.toolState.flush?.()` before changing the
 * file, as Write and Edit do: a kill -9 right after the change then still leaves a checkpoint.
 * @returns the checkpoint's id; a call that then does not change the file after all (the file
 * appeared meanwhile, the write was refused) takes the record back with
 * {@link dropFileCheckpoints}, so a rewind does not undo a change that never happened.
 */
export function recordFileCheckpoint(
  store: ToolStateStore,
  change: {
    toolUseId: string;
    toolName: string;
    path: string;
    /** The previous content (base64 and its decoded size), or `null` when the file did not exist. */
    before: { base64: string; bytes: number } | null;
  },
  limits: FileCheckpointLimits = {},
): number {
  if (!isObjectValue(store) || typeof store.get !== 'function' || typeof store.set !== 'function') throw argumentError('recordFileCheckpoint', 'store', "a tool-state store (the tool's agent.toolState)", store);
  if (!isObjectValue(change) || typeof change.path !== 'string' || typeof change.toolUseId !== 'string' || typeof change.toolName !== 'string') throw argumentError('recordFileCheckpoint', 'change', 'a change ({ toolUseId, toolName, path, before })', change);
  if (!isObjectValue(limits)) throw argumentError('recordFileCheckpoint', 'limits', 'an object ({ maxBytes, maxFileBytes }) or nothing', limits);
  const maxBytes = limits.maxBytes ?? DEFAULT_CHECKPOINT_MAX_BYTES;
  const maxFileBytes = Math.min(limits.maxFileBytes ?? DEFAULT_CHECKPOINT_MAX_FILE_BYTES, maxBytes);
  const index = readIndex(store);
  const id = index.next;
  const tooLarge = change.before !== null && change.before.bytes > maxFileBytes;
  const checkpoint: FileCheckpoint = {
    id,
    toolUseId: change.toolUseId,
    toolName: change.toolName,
    path: change.path,
    before: change.before === null || tooLarge ? null : change.before.base64,
    bytes: change.before?.bytes ?? 0,
    ...(tooLarge ? { omitted: 'too-large' as const } : {}),
  };
  index.bytes += sizeOf(checkpoint);
  // Oldest contents first become stubs until the total fits.
  while (index.bytes > maxBytes && index.contentFrom < index.next) {
    const old = readCheckpoint(store, index.contentFrom);
    index.contentFrom++;
    if (!old?.before) continue;
    index.bytes -= sizeOf(old);
    store.set(FILE_CHECKPOINT_KEY_PREFIX + old.id, { ...old, before: null, omitted: 'evicted' });
  }
  // Past the record bound the oldest records go entirely.
  while (index.next - index.first >= MAX_FILE_CHECKPOINTS) {
    index.bytes -= sizeOf(readCheckpoint(store, index.first));
    store.set(FILE_CHECKPOINT_KEY_PREFIX + index.first, null);
    index.first++;
    index.forgotten = true;
  }
  index.contentFrom = Math.max(index.contentFrom, index.first);
  store.set(FILE_CHECKPOINT_KEY_PREFIX + id, checkpoint);
  writeIndex(store, { ...index, next: id + 1 });
  return id;
}

/** Whether records older than the oldest kept one were dropped (see {@link recordFileCheckpoint}). */
export function fileCheckpointsForgotten(store: ToolStateStore): boolean {
  return readIndex(store).forgotten === true;
}

/** The checkpoints kept in a session, oldest first. */
export function listFileCheckpoints(store: ToolStateStore): FileCheckpoint[] {
  if (!isObjectValue(store) || typeof store.get !== 'function') throw argumentError('listFileCheckpoints', 'store', "a tool-state store (the tool's agent.toolState)", store);
  const index = readIndex(store);
  const kept: FileCheckpoint[] = [];
  for (let id = index.first; id < index.next; id++) {
    const checkpoint = readCheckpoint(store, id);
    if (checkpoint) kept.push(checkpoint);
  }
  return kept;
}

/**
 * Drops checkpoints: once they were rewound (a second rewind to the same point changes nothing),
 * or one a call recorded and then did not make its change after all.
 */
export function dropFileCheckpoints(store: ToolStateStore, ids: readonly number[]): void {
  if (ids.length === 0) return;
  const index = readIndex(store);
  for (const id of ids) {
    index.bytes -= sizeOf(readCheckpoint(store, id));
    store.set(FILE_CHECKPOINT_KEY_PREFIX + id, null);
  }
  writeIndex(store, index);
}

/** Whether a `toolState` key holds file checkpoints: the index or one checkpoint. */
export function isFileCheckpointKey(key: string): boolean {
  return key === FILE_CHECKPOINT_INDEX_KEY || key.startsWith(FILE_CHECKPOINT_KEY_PREFIX);
}

/** Where a subagent's file checkpoints go: the parent's tool state, and the parent's call that started the subagent. */
export interface SessionCheckpointTarget {
  toolState: ToolStateStore;
  toolUseId: string;
}

/**
 * A subagent's tool state: its own, except that file checkpoints are the session's. They go to
 * the parent's tool state (for a nested subagent, on up to the main agent's), each attributed to
 * the parent's call that started the subagent, so `agent.rewindFiles` on the main agent undoes
 * what a subagent changed in answer to a call it rewinds, and the session's bounds cover them.
 * @param own - the subagent's own tool state.
 * @param target - read at each access: where checkpoints go, or `undefined` to keep them in `own`.
 */
export function withSessionFileCheckpoints(own: ToolStateStore, target: () => SessionCheckpointTarget | undefined): ToolStateStore {
  const targetFor = (key: string) => (isFileCheckpointKey(key) ? target() : undefined);
  return {
    get: <T>(key: string) => {
      const to = targetFor(key);
      return to ? to.toolState.get<T>(key) : own.get<T>(key);
    },
    set: (key, value) => {
      const to = targetFor(key);
      if (!to) return own.set(key, value);
      const isCheckpoint = key !== FILE_CHECKPOINT_INDEX_KEY && typeof value === 'object' && value !== null;
      to.toolState.set(key, isCheckpoint ? { ...value, toolUseId: to.toolUseId } : value);
    },
    // The checkpoints land in the session's (the parent's) state: both are flushed.
    flush: async () => {
      await own.flush?.();
      await target()?.toolState.flush?.();
    },
  };
}
