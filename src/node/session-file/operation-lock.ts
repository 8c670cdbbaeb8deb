import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { releaseSessionLock, sessionLockedError, tryAcquireSessionLock, type SessionLockScope, type SessionLockTarget } from './session-lock.js';

/** The longest pause between two tries, in milliseconds. */
const MAX_PAUSE_MS = 20;

/**
 * Takes the session's lock for `scope`, making the store's folder if it is missing. While an
 * operation holds it (another worker's fenced append or lease change: microseconds to
 * milliseconds), waits and tries again, up to `waitMs`; a lock left by a dead process is taken
 * over. A writer's lock is refused at once by any other holder, as it always was.
 * @throws SessionLockedError when a writer holds the session until it closes it (an unfenced
 * writer in another store or process), or the lock stays held longer than `waitMs`.
 */
export async function takeSessionLock(target: SessionLockTarget, scope: SessionLockScope, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  let pause = 1;
  for (;;) {
    const held = await tryAcquireInFolder(target, scope);
    if (held === undefined) return;
    // A writer's lock waits for nothing but a known operation; an operation also waits out a lock
    // file still being written (unreadable for microseconds).
    const brief = held.scope === 'operation' || (scope === 'operation' && held.scope === 'unknown');
    if (!brief || Date.now() >= deadline) throw sessionLockedError(target, held);
    // Jittered, so racing workers spread out instead of colliding again.
    await new Promise((resolve) => setTimeout(resolve, pause * (0.5 + Math.random())));
    pause = Math.min(pause * 2, MAX_PAUSE_MS);
  }
}

/**
 * {@link tryAcquireSessionLock}, making the store's folder when it is missing: found by the lock
 * file's creation, not asked before every lock (the folder exists but for the first session).
 */
async function tryAcquireInFolder(target: SessionLockTarget, scope: SessionLockScope): ReturnType<typeof tryAcquireSessionLock> {
  try {
    return await tryAcquireSessionLock(target, scope);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== 'ENOENT') throw error;
    await mkdir(dirname(target.lockFile), { recursive: true });
    return tryAcquireSessionLock(target, scope);
  }
}

/** Runs `task` holding the session's lock for that one operation (see {@link takeSessionLock}). */
export async function withOperationLock<T>(target: SessionLockTarget, waitMs: number, task: () => Promise<T>): Promise<T> {
  await takeSessionLock(target, 'operation', waitMs);
  try {
    return await task();
  } finally {
    await releaseSessionLock(target.lockFile);
  }
}
