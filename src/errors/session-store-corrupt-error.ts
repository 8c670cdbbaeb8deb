import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** Fields of a {@link SessionStoreCorruptError}. */
export interface SessionStoreCorruptErrorOptions {
  /** The session whose data is damaged. */
  sessionId: string;
  /** Where the damaged data is: a file, a key, a table row. */
  location: string;
  /** What is wrong with it, e.g. `is not valid JSON`. */
  problem: string;
  /** How to repair it. */
  repair: string;
}

/** The `code` of a {@link SessionStoreCorruptError}. */
const CODE = 'session-store-corrupt';

/**
 * A store found its own bookkeeping for a session damaged (a lease file or a session's metadata
 * edited by hand, cut short by a disk error) in a way it cannot skip without risking a wrong
 * answer, such as a fencing token used twice; or a transcript entry that reads but was altered
 * so that it cannot be applied (loading the session fails with this error, naming the entry). An
 * entry that cannot be read at all (torn, not JSON) is skipped with a load warning instead.
 */
export class SessionStoreCorruptError extends AgentHarnessError {
  /** The error's code, `session-store-corrupt`. */
  static readonly code = CODE;
  /** The session whose data is damaged. */
  readonly sessionId: string;
  /** Where the damaged data is. */
  readonly location: string;
  constructor(options: SessionStoreCorruptErrorOptions) {
    super(CODE, `The stored data of session "${options.sessionId}" at ${options.location} ${options.problem}. ${options.repair}`);
    this.sessionId = options.sessionId;
    this.location = options.location;
  }
  /** True for this error, also when thrown by another copy of the library. */
  static override isInstance = hasCode<SessionStoreCorruptError>(CODE);
}
