import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** The `code` of a {@link SessionNotFoundError}. */
const CODE = 'session-not-found';

/** A session id given to resume or fork has no transcript in the store. */
export class SessionNotFoundError extends AgentHarnessError {
  static readonly code = CODE;
  readonly sessionId: string;
  constructor(sessionId: string) {
    super(
      CODE,
      `The session store has no session "${sessionId}". Check the id (store.list() lists the stored sessions) and that the agent uses the same store it was saved in.`,
    );
    this.sessionId = sessionId;
  }
  static override isInstance = hasCode<SessionNotFoundError>(CODE);
}
