import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { SessionLockedError, type SessionLockHolder } from '../../errors/session-locked-error.js';

/** The files a session lock is about. */
export interface SessionLockTarget {
  /** The session id, for errors. */
  sessionId: string;
  /** The transcript file, for errors. */
  file: string;
  /** The lock file (`<file>.lock`), an absolute path. */
  lockFile: string;
}

/** What a lock file says right now. */
export type SessionLockState =
  | { state: 'free' }
  /** The holder is gone (its pid is dead on this host): the lock may be taken over. */
  | { state: 'stale'; raw: string; holder: SessionLockHolder }
  | { state: 'held'; holder: SessionLockHolder | undefined; heldByThisProcess: boolean };

interface LockRegistry {
  /** Lock files this process holds, with the exact content it wrote. */
  held: Map<string, string>;
  exitHandlerInstalled: boolean;
}

// Shared through the global symbol registry so two copies of the library in one process agree.
const registryKey = Symbol.for('agent-harness.session-locks');
const registry: LockRegistry = ((globalThis as Record<symbol, unknown>)[registryKey] as LockRegistry | undefined) ?? {
  held: new Map(),
  exitHandlerInstalled: false,
};
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
export async function inspectSessionLock(lockFile: string): Promise<SessionLockState> {
  let raw: string;
  try {
    raw = await readFile(lockFile, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { state: 'free' };
    throw error;
  }
  const holder = parseHolder(raw);
  // An unreadable lock (e.g. read between another writer's create and its write) counts as held.
  if (holder === undefined || holder.hostname !== hostname()) return { state: 'held', holder, heldByThisProcess: false };
  if (holder.pid === process.pid) {
    // Our pid but not a lock we hold: left by an earlier process that had the same pid (containers).
    if (registry.held.get(lockFile) !== raw) return { state: 'stale', raw, holder };
    return { state: 'held', holder, heldByThisProcess: true };
  }
  return isProcessAlive(holder.pid) ? { state: 'held', holder, heldByThisProcess: false } : { state: 'stale', raw, holder };
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
    const moved = await readFile(aside, 'utf8').catch(() => undefined);
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
      if (readFileSync(lockFile, 'utf8') === content) unlinkSync(lockFile);
    } catch {
      // Best effort: a lock left behind is stale once this process is gone.
    }
  }
  registry.held.clear();
}

/**
 * Takes a session's write lock: creates `lockFile` exclusively (`O_EXCL`) with this process's pid,
 * host and time. A stale lock (its pid is dead on this host) is taken over. The lock is released
 * by {@link releaseSessionLock}, or on process exit.
 * @throws SessionLockedError when a live writer holds the lock.
 */
export async function acquireSessionLock(target: SessionLockTarget): Promise<void> {
  const content = `${JSON.stringify({ pid: process.pid, hostname: hostname(), createdAt: new Date().toISOString() })}\n`;
  let last: SessionLockState = { state: 'free' };
  // A few rounds cover the lock vanishing or being taken over between our steps.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (await tryCreate(target.lockFile, content)) {
      registry.held.set(target.lockFile, content);
      if (!registry.exitHandlerInstalled) {
        registry.exitHandlerInstalled = true;
        process.on('exit', releaseAllOnExit);
      }
      return;
    }
    last = await inspectSessionLock(target.lockFile);
    if (last.state === 'held') throw sessionLockedError(target, last);
    if (last.state === 'stale') await removeStaleLock(target.lockFile, last.raw);
  }
  throw sessionLockedError(target, { state: 'held', holder: last.state === 'free' ? undefined : last.holder, heldByThisProcess: false });
}

/** Releases a lock this process holds; leaves the file alone if it is no longer ours. */
export async function releaseSessionLock(lockFile: string): Promise<void> {
  const content = registry.held.get(lockFile);
  if (content === undefined) return;
  registry.held.delete(lockFile);
  try {
    if ((await readFile(lockFile, 'utf8')) === content) await unlink(lockFile);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}
