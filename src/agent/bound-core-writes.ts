import { SessionWriteError } from '../errors/session-write-error.js';
import type { AgentCore } from '../runtime/agent-core.js';
import { boundWrites, DEFAULT_STORE_WRITE_GRACE_MS } from '../session/bound-writes.js';

/**
 * Gives up on a store write of the session left unanswered for `storeWriteGraceMs` from now (see
 * `boundWrites`); a no-op for an agent without a store. `why` ends the error's sentence ("after
 * the run was interrupted"). Returns the function that stops bounding.
 */
export function boundCoreWrites(core: AgentCore, why: string): () => void {
  const journal = core.journal;
  if (!journal) return () => undefined;
  const graceMs = core.options.storeWriteGraceMs ?? DEFAULT_STORE_WRITE_GRACE_MS;
  const cause = () => new Error(`the store left a write unanswered for ${graceMs} ms after ${why} (storeWriteGraceMs), so it was given up and nothing more is written; that write may or may not have been stored`);
  return boundWrites(journal, graceMs, () => new SessionWriteError(core.sessionId, cause()));
}
