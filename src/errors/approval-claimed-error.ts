import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** The `code` of a {@link ApprovalClaimedError}. */
const CODE = 'approval-claimed';

/**
 * The host's `claimApproval` said this approval was already answered elsewhere (another process
 * resumed the same snapshot and answered first): nothing was recorded and nothing ran.
 */
export class ApprovalClaimedError extends AgentHarnessError {
  static readonly code = CODE;
  /** The approval that was already claimed. */
  readonly approvalId: string;
  readonly sessionId: string;
  constructor(sessionId: string, approvalId: string) {
    super(
      CODE,
      `Approval "${approvalId}" of session "${sessionId}" was already answered elsewhere (claimApproval returned false), so this answer was not applied and nothing ran. Load the session's current state instead of this older copy.`,
    );
    this.sessionId = sessionId;
    this.approvalId = approvalId;
  }
  static override isInstance = hasCode<ApprovalClaimedError>(CODE);
}
