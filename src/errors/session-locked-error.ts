import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** Who holds a session's write lock, as its lock file says. */
export interface SessionLockHolder {
  /** Process id of the writer. */
  pid: number;
  /** Host the writer runs on. */
  hostname: string;
  /** ISO 8601 time the lock was taken. */
  createdAt: string;
}

/** Fields of a {@link SessionLockedError}. */
export interface SessionLockedErrorOptions {
  /** The session that is locked. */
  sessionId: string;
  /** The session's transcript file. */
  file: string;
  /** The lock file. */
  lockFile: string;
  /** The writer holding the lock; undefined when the lock file could not be read. */
  holder: SessionLockHolder | undefined;
  /** True when the holder is this very process (another store instance). */
  heldByThisProcess: boolean;
}

function describeHolder(options: SessionLockedErrorOptions): string {
  const { holder } = options;
  if (holder === undefined) return 'a writer whose lock file is empty or unreadable';
  const who = options.heldByThisProcess ? `this process (pid ${holder.pid}) through another store instance` : `pid ${holder.pid} on host "${holder.hostname}"`;
  return `${who}, since ${holder.createdAt}`;
}

/** The `code` of a {@link SessionLockedError}. */
const CODE = 'session-locked';

/**
 * A session transcript already has a live writer (another store instance or another process), so
 * this one may not append to it: two writers would interleave lines.
 */
export class SessionLockedError extends AgentHarnessError {
  static readonly code = CODE;
  /** The session that is locked. */
  readonly sessionId: string;
  /** The session's transcript file. */
  readonly file: string;
  /** The lock file. */
  readonly lockFile: string;
  /** The writer holding the lock, when its lock file could be read. */
  readonly holder: SessionLockHolder | undefined;
  constructor(options: SessionLockedErrorOptions) {
    super(
      CODE,
      `Session "${options.sessionId}" (${options.file}) is locked by ${describeHolder(options)}; only one writer per session is allowed. ` +
        `Close the other writer first (store.close(sessionId) or agent.close()), or fork the session to write a copy. ` +
        `If you are sure nothing else writes this session (e.g. the holder is on another host and has stopped), delete ${options.lockFile}.`,
    );
    this.sessionId = options.sessionId;
    this.file = options.file;
    this.lockFile = options.lockFile;
    this.holder = options.holder;
  }
  static override isInstance = hasCode<SessionLockedError>(CODE);
}
