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

/** Forgets the entry of a claim whose agent was collected without closing, if it is still the entry. */
const collected = new FinalizationRegistry<{ sessions: Map<string, WeakRef<ClaimToken>>; sessionId: string; ref: WeakRef<ClaimToken> }>(({ sessions, sessionId, ref }) => {
  if (sessions.get(sessionId) === ref) sessions.delete(sessionId);
});

/**
 * Claims a session of a store for one agent of this process. Two agents writing one transcript
 * would interleave their histories (or one would lose its writes to the store's lock), so a
 * second claim fails while the first is held: until its `release()` (the agent's `close()`), or
 * until the agent holding it is collected. The agent keeps the claim for its life.
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
  collected.register(token, { sessions, sessionId, ref }, ref);
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
