import type { AgentHarnessError } from '../errors/agent-harness-error.js';
import type { Message } from '../model/messages.js';
import type { Usage } from '../model/usage.js';
import type { PermissionDecision } from '../types/permission.js';
import type { PendingApproval } from '../types/pending-approval.js';

/** How a run ended. */
export type RunStatus =
  | 'completed'
  | 'awaiting-approval'
  | 'interrupted'
  | 'max-turns'
  | 'budget-exceeded'
  | 'error';

/** What a run produced. `Output` is the type of `output` for a run asked for one (`outputSchema`). */
export interface RunResult<Output = unknown> {
  status: RunStatus;
  runId: string;
  sessionId: string;
  /** The text of the last assistant message of the run ('' when it had none). */
  text: string;
  /** Token usage summed over the run's model calls. */
  usage: Usage;
  /** Estimated cost in US dollars from the price table; undefined for a model without a price. */
  costUsd: number | undefined;
  /** Model calls made in this run. */
  turns: number;
  /** The messages appended to the session during this run, in order. */
  messages: Message[];
  /** Tool calls denied during this run. */
  permissionDenials: PermissionDecision[];
  /** Calls waiting for the host; non-empty exactly when `status` is `awaiting-approval`. */
  pendingApprovals: PendingApproval[];
  /**
   * For a run given an `outputSchema` that completed: its final answer, parsed and validated
   * (typed after the schema). A run whose answer never validated ends with status `error` and a
   * `StructuredOutputError`.
   */
  output?: Output;
  /** For a run given an `outputSchema`: how many final answers it took (1 when the first was valid). */
  outputAttempts?: number;
  /** The error that ended the run, for status `error`. */
  error?: AgentHarnessError | Error;
}
