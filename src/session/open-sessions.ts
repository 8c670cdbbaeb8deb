import { ConfigurationError } from '../errors/configuration-error.js';
import type { SessionStore } from './session-store.js';

/** An agent's hold on a stored session in this process. */
export interface SessionClaim {
  /** Frees the session (the agent closed): another agent of this process may open it. */
  release(): void;
}

/**
 * What the process-wide table holds of a claim: a flag, not the agent. The table holds it weakly,
 * so an agent dropped without `close()` frees its session once collected; and a `WeakRef` keeps
 * its target through the scavenges of the task that made it, so it must not point at the agent
 * (the whole agent would be copied to the old generation: tens of microseconds an agent).
 */
interface ClaimToken {
  released: boolean;
}

const open = new WeakMap<SessionStore, Map<string, WeakRef<ClaimToken>>>();

/** What the table keeps to end a claim whose agent is collected without closing. */
interface CollectedClaim {
  store: SessionStore;
  sessions: Map<string, WeakRef<ClaimToken>>;
  sessionId: string;
  ref: WeakRef<ClaimToken>;
}

/**
 * Ends the claim of an agent collected without closing, if it is still the session's entry (no
 * other agent claimed the session since): forgets it, and lets go of what the store holds for the
 * session as the agent's `close()` would (the file store: an open transcript and its lock, which
 * would otherwise stay until the process exits, one per session a long-lived store ever wrote).
 */
const collected = new FinalizationRegistry<CollectedClaim>(({ store, sessions, sessionId, ref }) => {
  if (sessions.get(sessionId) !== ref) return;
  sessions.delete(sessionId);
  closeQuietly(store, sessionId);
});

/** `store.close(sessionId)`, its failure dropped: nobody is left to hear of it. */
function closeQuietly(store: SessionStore, sessionId: string): void {
  try {
    if (typeof store.close === 'function') void Promise.resolve(store.close(sessionId)).catch(() => undefined);
  } catch {
    // A store whose close throws at once: nothing to do either.
  }
}

/**
 * Claims a session of a store for one agent of this process. Two agents writing one transcript
 * would interleave their histories (or one would lose its writes to the store's lock), so a
 * second claim fails while the first is held: until its `release()` (the agent's `close()`), or
 * until the agent holding it is collected (then the store's `close(sessionId)` is called, as the
 * agent's `close()` would). The agent keeps the claim for its life.
 * @throws ConfigurationError naming the session and the fix.
 */
export function claimSession(store: SessionStore, sessionId: string): SessionClaim {
  let sessions = open.get(store);
  if (!sessions) open.set(store, (sessions = new Map()));
  const current = sessions.get(sessionId)?.deref();
  if (current && !current.released) {
    throw new ConfigurationError(
      `Session "${sessionId}" is already open in another agent of this process with the same store; two agents would interleave one transcript. Use that agent, or call its close() first.`,
    );
  }
  const token: ClaimToken = { released: false };
  const ref = new WeakRef(token);
  sessions.set(sessionId, ref);
  collected.register(token, { store, sessions, sessionId, ref }, ref);
  const table = sessions;
  return {
    release() {
      if (token.released) return;
      token.released = true;
      collected.unregister(ref);
      if (table.get(sessionId) === ref) table.delete(sessionId);
    },
  };
}
