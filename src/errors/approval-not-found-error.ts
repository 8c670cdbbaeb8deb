import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** Options of {@link ApprovalNotFoundError}. */
export interface ApprovalNotFoundErrorOptions {
  /**
   * The id of the pending approval whose call has the id given (a `toolUseId` passed where the
   * approval's own `id` belongs): the message then names the approval to pass instead.
   */
  approvalOfCall?: string;
}

/** The `code` of a {@link ApprovalNotFoundError}. */
const CODE = 'approval-not-found';

/** `resolveApproval()` named an id that is not pending (unknown, or already resolved). */
export class ApprovalNotFoundError extends AgentHarnessError {
  static readonly code = CODE;
  readonly approvalId: string;
  constructor(approvalId: string, pendingIds: readonly string[], options: ApprovalNotFoundErrorOptions = {}) {
    super(
      CODE,
      options.approvalOfCall !== undefined
        ? `No pending approval has id "${approvalId}": that is the toolUseId of the call that approval "${options.approvalOfCall}" asks about. Pass the approval's id (PendingApproval.id), not its toolUseId.`
        : `No pending approval has id "${approvalId}"; it is unknown or was already resolved. Pending now: ${pendingIds.length ? pendingIds.map((id) => `"${id}"`).join(', ') : 'none'} (see \`agent.pendingApprovals\`).`,
    );
    this.approvalId = approvalId;
  }
  static override isInstance = hasCode<ApprovalNotFoundError>(CODE);
}
