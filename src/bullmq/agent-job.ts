import type { ApprovalDecision } from '../loop/apply-approval-decision.js';
import type { RunStatus } from '../events/run-result.js';

/** The queue's name when the host gives none. */
export const DEFAULT_AGENT_QUEUE_NAME = 'agent-harness';

/** What a job asks of a session: a prompt, or the host's answer to one of its pending approvals. */
export type AgentJobData =
  | {
      /** Send `prompt` to the session (created when it does not exist yet). */
      kind: 'run';
      /** The session; created by the first job that finds it missing. */
      sessionId: string;
      /** The user's message. */
      prompt: string;
      /** The id of the `enqueueRun` call that queued the job, with an `idempotencyKey`: of simultaneous calls with one key, it tells the one whose job it is. */
      enqueueId?: string;
    }
  | {
      /** Answer the session's pending approval `approvalId`; the run continues once its batch is answered. */
      kind: 'approval';
      /** The session that waits. */
      sessionId: string;
      /** The pending approval's id. */
      approvalId: string;
      /** The host's answer. */
      decision: ApprovalDecision;
      /** The id of the `enqueueApproval` call that queued the job, with an `idempotencyKey`: of simultaneous calls with one key, it tells the one whose job it is. */
      enqueueId?: string;
    };

/** How a job ended: its run's status, or why it had nothing to run. The job's BullMQ return value. */
export interface AgentJobResult {
  /** The session the job ran on. */
  sessionId: string;
  /** The id of the job's run in the transcript (`run-start` / `run-end`): `job_<jobId>`. */
  runId: string;
  /**
   * The run's status; `approval-not-pending` when the approval was already answered by another
   * job (or superseded by a new prompt) before this job's run began, or its session is not in the
   * store (deleted), so nothing ran; `session-deleted` when the host deleted the session while the
   * job ran (its lease ended with it): the run stops there and is not started again in a new
   * session, where its prompt and tools would run a second time.
   */
  status: RunStatus | 'approval-not-pending' | 'session-deleted';
  /** Ids of the approvals the session waits on once the job is done. */
  pendingApprovals: string[];
  /** The message of the error that ended the run, for status `error`. */
  error?: string;
}

/** The run id a job's run carries: a retry of the job finds its own run in the transcript by it. */
export const runIdOfJob = (jobId: string): string => `job_${jobId}`;
