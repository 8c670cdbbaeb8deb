import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { link, open, rename, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename } from 'node:path';
import { SessionLockedError, type SessionLockHolder } from '../../errors/session-locked-error.js';
import { SessionStoreCorruptError } from '../../errors/session-store-corrupt-error.js';
import { readWithoutWaiting, readWithoutWaitingSync } from './read-without-waiting.js';
import { unlinkIfHolding } from './unlink-if-holding.js';

/** The files a session lock is about. */
export interface SessionLockTarget {
  /** The session id, for errors. */
  sessionId: string;
  /** The transcript file, for errors. */
  file: string;
  /** The lock file (`<file>.lock`), an absolute path. */
  lockFile: string;
}

/**
 * How long a lock is held: `writer` from a session's first unfenced append until `close` (one
 * writer per session), `operation` for one step under a lease (an append, a lease change, a
 * delete), so workers that take turns holding leases take turns with the file too.
 */
export type SessionLockScope = 'writer' | 'operation';

/** What a lock file says right now. */
export type SessionLockState =
  | { state: 'free' }
  /** The holder is gone (its pid is dead on this host): the lock may be taken over. */
  | { state: 'stale'; raw: string; holder: SessionLockHolder | undefined }
  /** `scope` is `unknown` while the lock file is being written (or cannot be read). */
  | { state: 'held'; holder: SessionLockHolder | undefined; heldByThisProcess: boolean; scope: SessionLockScope | 'unknown' };

/** An unreadable lock file older than this was left by a writer that died while creating it. */
const ABANDONED_UNREADABLE_LOCK_MS = 5_000;

interface LockRegistry {
  /** Lock files this process holds, with the exact content it wrote. */
  held: Map<string, string>;
  /** Lock files a store of this process is taking right now. */
  acquiring: Set<string>;
  exitHandlerInstalled: boolean;
}

// Shared through the global symbol registry so two copies of the library in one process agree.
const registryKey = Symbol.for('agent-harness.session-locks');
const registry: LockRegistry = ((globalThis as Record<symbol, unknown>)[registryKey] as LockRegistry | undefined) ?? {
  held: new Map(),
  acquiring: new Set(),
  exitHandlerInstalled: false,
};
registry.acquiring ??= new Set();
(globalThis as Record<symbol, unknown>)[registryKey] = registry;

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** True unless signalling `pid` says there is no such process (EPERM means it lives, as someone else). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) !== 'ESRCH';
  }
}

function scopeOf(raw: string | undefined): SessionLockScope | 'unknown' {
  if (raw === undefined) return 'unknown';
  try {
    return (JSON.parse(raw) as { scope?: unknown }).scope === 'operation' ? 'operation' : 'writer';
  } catch {
    return 'unknown';
  }
}

function parseHolder(raw: string): SessionLockHolder | undefined {
  try {
    const value = JSON.parse(raw) as Partial<SessionLockHolder> | null;
    if (typeof value !== 'object' || value === null) return undefined;
    if (!Number.isSafeInteger(value.pid) || (value.pid as number) <= 0 || typeof value.hostname !== 'string') return undefined;
    return { pid: value.pid as number, hostname: value.hostname, createdAt: typeof value.createdAt === 'string' ? value.createdAt : 'an unknown time' };
  } catch {
    return undefined;
  }
}

/** Reads a session's lock file and says whether it is free, stale or held by a live writer. */
export function inspectSessionLock(lockFile: string): Promise<SessionLockState> {
  return inspect(lockFile, false);
}

/** `duringOwnAcquisition`: the caller is the one store of this process taking this lock. */
async function inspect(lockFile: string, duringOwnAcquisition: boolean, sessionId?: string): Promise<SessionLockState> {
  let raw: string;
  try {
    const read = await readWithoutWaiting(lockFile);
    if (read === 'not-a-file') throw lockNotAFile(lockFile, sessionId);
    raw = read;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { state: 'free' };
    throw error;
  }
  const holder = parseHolder(raw);
  if (holder === undefined) {
    // Read between another writer's create and its write: held. Still unreadable long after, the
    // writer died in that instant (the write takes microseconds).
    const age = await stat(lockFile).then((stats) => Date.now() - stats.mtimeMs, () => 0);
    return age > ABANDONED_UNREADABLE_LOCK_MS ? { state: 'stale', raw, holder } : { state: 'held', holder, heldByThisProcess: false, scope: 'unknown' };
  }
  const scope = scopeOf(raw);
  if (holder.hostname !== hostname()) return { state: 'held', holder, heldByThisProcess: false, scope };
  if (holder.pid === process.pid) {
    const ours = registry.held.get(lockFile) === raw || (registry.acquiring.has(lockFile) && !duringOwnAcquisition);
    if (ours) return { state: 'held', holder, heldByThisProcess: true, scope };
    // Our pid on a lock no store of ours holds: left by an earlier process with the same pid (containers).
    return { state: 'stale', raw, holder };
  }
  return isProcessAlive(holder.pid) ? { state: 'held', holder, heldByThisProcess: false, scope } : { state: 'stale', raw, holder };
}

/** The error for a lock file that is not a file (a FIFO, a directory): damage from outside, not a holder. */
function lockNotAFile(lockFile: string, sessionId: string | undefined): SessionStoreCorruptError {
  return new SessionStoreCorruptError({
    sessionId: sessionId ?? basename(lockFile).replace(/\.jsonl\.lock$/, ''),
    location: lockFile,
    problem: 'is not a regular file (a FIFO, a socket, a device or a directory holds the lock file\'s name), so the lock cannot be read or taken',
    repair: 'Nothing of this library makes one: stop every writer of this session, then delete it.',
  });
}

/** The error for a lock held by someone else. */
export function sessionLockedError(target: SessionLockTarget, state: Extract<SessionLockState, { state: 'held' }>): SessionLockedError {
  return new SessionLockedError({ ...target, holder: state.holder, heldByThisProcess: state.heldByThisProcess });
}

/**
 * Removes a stale lock, unless someone replaced it meanwhile. The lock is first renamed aside and
 * checked, so two processes taking over the same stale lock cannot delete each other's new lock.
 */
export async function removeStaleLock(lockFile: string, staleRaw: string): Promise<void> {
  const aside = `${lockFile}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(lockFile, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  try {
    const moved = await readWithoutWaiting(aside).catch(() => undefined);
    if (moved !== staleRaw) {
      // We moved a fresh lock another writer just took: put it back (fails only if a third appeared).
      await link(aside, lockFile).catch(() => undefined);
    }
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

async function tryCreate(lockFile: string, content: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockFile, 'wx');
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(content, 'utf8');
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(lockFile).catch(() => undefined);
    throw error;
  }
  await handle.close();
  return true;
}

function releaseAllOnExit(): void {
  for (const [lockFile, content] of registry.held) {
    try {
      if (readWithoutWaitingSync(lockFile) === content) unlinkSync(lockFile);
    } catch {
      // Best effort: a lock left behind is stale once this process is gone.
    }
  }
  registry.held.clear();
}

/**
 * Tries to take a session's lock: creates `lockFile` exclusively (`O_EXCL`) with this process's
 * pid, host, time (and scope, for an operation lock). A stale lock (its pid is dead on this host)
 * is taken over. The lock is released by {@link releaseSessionLock}, or on process exit.
 * @returns undefined once the lock is taken, else what holds it.
 */
export async function tryAcquireSessionLock(target: SessionLockTarget, scope: SessionLockScope): Promise<Extract<SessionLockState, { state: 'held' }> | undefined> {
  const { lockFile } = target;
  // Stores of one process settle it among themselves first: only one of them touches the file.
  if (registry.held.has(lockFile) || registry.acquiring.has(lockFile)) {
    const heldContent = registry.held.get(lockFile);
    const holder = heldContent === undefined ? { pid: process.pid, hostname: hostname(), createdAt: new Date().toISOString() } : parseHolder(heldContent);
    return { state: 'held', holder, heldByThisProcess: true, scope: scopeOf(heldContent) };
  }
  registry.acquiring.add(lockFile);
  try {
    const fields = { pid: process.pid, hostname: hostname(), createdAt: new Date().toISOString(), ...(scope === 'operation' ? { scope } : {}) };
    const content = `${JSON.stringify(fields)}\n`;
    let last: SessionLockState = { state: 'free' };
    // A few rounds cover the lock vanishing or being taken over between our steps.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      if (await tryCreate(lockFile, content)) {
        registry.held.set(lockFile, content);
        if (!registry.exitHandlerInstalled) {
          registry.exitHandlerInstalled = true;
          process.on('exit', releaseAllOnExit);
        }
        return undefined;
      }
      last = await inspect(lockFile, true, target.sessionId);
      if (last.state === 'held') return last;
      if (last.state === 'stale') await removeStaleLock(lockFile, last.raw);
    }
    return { state: 'held', holder: last.state === 'free' ? undefined : last.holder, heldByThisProcess: false, scope: 'unknown' };
  } finally {
    registry.acquiring.delete(lockFile);
  }
}

/**
 * Takes a session's lock, refusing at once when a live writer holds it.
 * @throws SessionLockedError when a live writer holds the lock.
 */
export async function acquireSessionLock(target: SessionLockTarget, scope: SessionLockScope = 'writer'): Promise<void> {
  const held = await tryAcquireSessionLock(target, scope);
  if (held !== undefined) throw sessionLockedError(target, held);
}

/** Releases a lock this process holds; leaves the file alone if it is no longer ours. */
export async function releaseSessionLock(lockFile: string): Promise<void> {
  const content = registry.held.get(lockFile);
  if (content === undefined) return;
  registry.held.delete(lockFile);
  try {
    await unlinkIfHolding(lockFile, content);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}
