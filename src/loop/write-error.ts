import { LeaseLostError } from '../errors/lease-lost-error.js';
import { SessionConflictError } from '../errors/session-conflict-error.js';
import { SessionWriteError } from '../errors/session-write-error.js';
import type { AgentCore } from '../runtime/agent-core.js';

/** The error a failed store write ends a run with: a stale writer's conflict or lost lease, or an error already saying so, as it is; anything else wrapped. */
export function writeError(core: AgentCore, failure: Error): Error {
  return SessionConflictError.isInstance(failure) || LeaseLostError.isInstance(failure) || SessionWriteError.isInstance(failure) ? failure : new SessionWriteError(core.sessionId, failure);
}

/**
 * Waits for the store to take everything recorded so far, then gives the error a failed write ends
 * the work with ({@link writeError}), or `undefined` when every write was stored.
 */
export async function flushWriteError(core: AgentCore): Promise<Error | undefined> {
  await core.flush();
  const failure = core.writeFailure;
  return failure && writeError(core, failure);
}
