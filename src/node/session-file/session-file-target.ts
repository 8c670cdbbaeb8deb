import { join } from 'node:path';
import { assertSessionId, SESSION_FILE_EXTENSION } from './session-id.js';
import type { SessionLockTarget } from './session-lock.js';

/** The files of one session in the store's directory. */
export interface SessionFileTarget extends SessionLockTarget {
  /** `<sessionId>.jsonl.lease`: the session's lease (holder, fencing token, expiry). */
  leaseFile: string;
}

/**
 * The files of `sessionId` in `dir`: the transcript `<id>.jsonl`, its lock `<id>.jsonl.lock` and
 * its lease `<id>.jsonl.lease`.
 * @throws ConfigurationError for an id that is not a plain file name.
 */
export function sessionFileTarget(dir: string, sessionId: string): SessionFileTarget {
  assertSessionId(sessionId);
  const file = join(dir, `${sessionId}${SESSION_FILE_EXTENSION}`);
  return { sessionId, file, lockFile: `${file}.lock`, leaseFile: `${file}.lease` };
}
