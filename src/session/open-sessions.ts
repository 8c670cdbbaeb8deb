import { ConfigurationError } from '../errors/configuration-error.js';
import type { SessionStore } from './session-store.js';

/** An agent's hold on a stored session in this process. */
export interface SessionHolder {
  /** True once the holder is closed: the session is free again. */
  readonly closed: boolean;
}

const open = new WeakMap<SessionStore, Map<string, WeakRef<SessionHolder>>>();

/**
 * Claims a session of a store for one agent of this process. Two agents writing one transcript
 * would interleave their histories (or one would lose its writes to the store's lock), so a
 * second claim fails while the first holder is open and alive.
 * @throws ConfigurationError naming the session and the fix.
 */
export function claimSession(store: SessionStore, sessionId: string, holder: SessionHolder): void {
  let sessions = open.get(store);
  if (!sessions) open.set(store, (sessions = new Map()));
  const current = sessions.get(sessionId)?.deref();
  if (current && current !== holder && !current.closed) {
    throw new ConfigurationError(
      `Session "${sessionId}" is already open in another agent of this process with the same store; two agents would interleave one transcript. Use that agent, or call its close() first.`,
    );
  }
  sessions.set(sessionId, new WeakRef(holder));
}
