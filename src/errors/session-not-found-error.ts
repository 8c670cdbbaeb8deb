import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** A session id given to resume or fork has no transcript in the store. */
export class SessionNotFoundError extends AgentHarnessError {
  static readonly code = 'session-not-found';
  readonly sessionId: string;
  constructor(sessionId: string) {
    super(
      SessionNotFoundError.code,
      `The session store has no session "${sessionId}". Check the id (store.list() lists the stored sessions) and that the agent uses the same store it was saved in.`,
    );
    this.sessionId = sessionId;
  }
  static override isInstance = hasCode<SessionNotFoundError>(SessionNotFoundError.code);
}
