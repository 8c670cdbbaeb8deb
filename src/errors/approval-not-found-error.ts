import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** `resolveApproval()` named an id that is not pending (unknown, or already resolved). */
export class ApprovalNotFoundError extends AgentHarnessError {
  static readonly code = 'approval-not-found';
  readonly approvalId: string;
  constructor(approvalId: string, pendingIds: readonly string[]) {
    super(
      ApprovalNotFoundError.code,
      `No pending approval has id "${approvalId}"; it is unknown or was already resolved. Pending now: ${pendingIds.length ? pendingIds.map((id) => `"${id}"`).join(', ') : 'none'} (see \`agent.pendingApprovals\`).`,
    );
    this.approvalId = approvalId;
  }
  static override isInstance = hasCode<ApprovalNotFoundError>(ApprovalNotFoundError.code);
}
