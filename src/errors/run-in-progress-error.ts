import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** The `code` of a {@link RunInProgressError}. */
const CODE = 'run-in-progress';

/** `run()` or `resolveApproval()` was called while another run of the same agent is active. */
export class RunInProgressError extends AgentHarnessError {
  static readonly code = CODE;
  constructor(sessionId: string) {
    super(
      CODE,
      `Agent session "${sessionId}" already has an active run. Await its \`result\` (or call \`agent.interrupt()\`) before starting another; use \`agent.fork()\` for a parallel conversation.`,
    );
  }
  static override isInstance = hasCode<RunInProgressError>(CODE);
}
