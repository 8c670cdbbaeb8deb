import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** The cause's message without its closing full stop (this message adds its own), or its name. */
function sentenceBody(cause: Error): string {
  return cause.message.trim().replace(/\.+$/, '') || cause.name;
}

/** The `code` of a {@link SessionWriteError}. */
const CODE = 'session-write';

/** The session store failed to append the transcript; the run stops rather than lose history. */
export class SessionWriteError extends AgentHarnessError {
  static readonly code = CODE;
  readonly sessionId: string;
  constructor(sessionId: string, cause: Error) {
    super(
      CODE,
      `Could not write the transcript of session "${sessionId}": ${sentenceBody(cause)}. The run stopped so that nothing unrecorded happens; fix the store (disk space, permissions, lock) and resume the session.`,
      { cause },
    );
    this.sessionId = sessionId;
  }
  static override isInstance = hasCode<SessionWriteError>(CODE);
}
