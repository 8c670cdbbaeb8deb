import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** Fields of a {@link SessionConflictError}. */
export interface SessionConflictErrorOptions {
  /** The session that was written by someone else. */
  sessionId: string;
  /** The revision the refused writer last saw (the `seq` of the last entry it knew). */
  expectedRevision: number;
  /** The revision the store holds now, when the store can tell. */
  actualRevision?: number;
}

/** The `code` of a {@link SessionConflictError}. */
const CODE = 'session-conflict';

/**
 * A stale writer was refused: the session changed in the store since this writer loaded it
 * (another agent, process or server appended to it, or deleted it and wrote it again). Nothing of the refused append was stored,
 * and no tool call that depended on it was run. Load the session again and retry.
 */
export class SessionConflictError extends AgentHarnessError {
  static readonly code = CODE;
  /** The session that was written by someone else. */
  readonly sessionId: string;
  /** The revision the refused writer expected. */
  readonly expectedRevision: number;
  /** The revision the store holds now, when known. */
  readonly actualRevision: number | undefined;
  constructor(options: SessionConflictErrorOptions) {
    const actual =
      options.actualRevision === undefined
        ? 'a different one'
        : options.actualRevision === options.expectedRevision
          ? `revision ${options.actualRevision} of another history (its entry ${options.actualRevision} is not the one this writer saw: the session was deleted and written again since)`
          : `revision ${options.actualRevision}`;
    super(
      CODE,
      `Session "${options.sessionId}" was changed by another writer: this one last saw revision ${options.expectedRevision}, the store holds ${actual}. ` +
        `Nothing was written and nothing that depended on it ran. Load the session again (createAgent({ store, resume: "${options.sessionId}" })) and retry on the fresh state.`,
    );
    this.sessionId = options.sessionId;
    this.expectedRevision = options.expectedRevision;
    this.actualRevision = options.actualRevision;
  }
  static override isInstance = hasCode<SessionConflictError>(CODE);
}
