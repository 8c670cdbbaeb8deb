import type { AgentHarnessError } from '../errors/agent-harness-error.js';
import type { Message } from '../model/messages.js';
import type { StopDetails, StopReason } from '../model/model.js';
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

/** One subagent run inside a run (the `Agent` tool), for the per-agent usage breakdown. */
export interface SubagentRunSummary {
  /** The subagent's id (its events, entries and approvals carry it). */
  agentId: string;
  /** The subagent type (the key in `createAgent({ agents })`). */
  subagentType: string;
  /** The parent's call that started it. */
  parentToolUseId: string;
  /** How its run (or this part of it, after an approval) ended. */
  status: RunStatus;
  /** Its token usage (its own subagents' included). */
  usage: Usage;
  /** The part of `usage.outputTokens` that is an estimate; see `RunResult.estimatedOutputTokens`. Absent when none is. */
  estimatedOutputTokens?: number;
  /** Its estimated cost in US dollars; undefined for a model without a price. */
  costUsd: number | undefined;
  /** Its model calls. */
  turns: number;
  /** Why its last model answer stopped (see `RunResult.stopReason`: `max_tokens`, `model_context_window_exceeded` or `refusal` mean its report was cut off). Absent when it made no model call. */
  stopReason?: StopReason | null;
}

/** A subagent started with `run_in_background`, as the parent's run result lists it. */
export interface BackgroundTaskInfo {
  /** The id the `Agent` tool returned (the model checks it with `TaskOutput`). */
  taskId: string;
  /** The subagent's id. */
  agentId: string;
  /** The subagent type. */
  subagentType: string;
  /** The task's short description. */
  description: string;
  /** `running` until it ends; `interrupted` when `agent.close()` stopped it (or, read back, when the process stopped while it ran). */
  status: 'running' | 'completed' | 'failed' | 'interrupted';
}

/** What one step of a plan looked like when the work was checked against it. */
export interface PlanStepFinding {
  /** The step, as the plan says it. */
  step: string;
  /** `done` as planned, `deviated` (done differently), or `missing` (not done). */
  status: 'done' | 'deviated' | 'missing';
  /** What shows it: files, commands, tool results, quotes from the work. */
  evidence: string;
}

/** The verdict of checking the work done against an approved plan (`verifyPlan`). */
export interface PlanVerification {
  /** `compliant`: every step done as planned; `deviations`: done, but differently; `incomplete`: steps missing. */
  verdict: 'compliant' | 'deviations' | 'incomplete';
  /** A short summary for the user. */
  summary: string;
  /** One finding per plan step, in plan order. */
  steps: PlanStepFinding[];
}

/** What a run produced. `Output` is the type of `output` for a run asked for one (`outputSchema`). */
export interface RunResult<Output = unknown> {
  status: RunStatus;
  runId: string;
  sessionId: string;
  /** The text of the last assistant message of the run ('' when it had none). */
  text: string;
  /**
   * Token usage summed over the run's model calls. A call that did not complete (interrupted, or
   * failed midway and retried or not) counts the usage it reported (for the Anthropic API, its
   * input at `message_start`) plus an estimate of the output it streamed after that report, which
   * the API never reports for such a call: see `estimatedOutputTokens`.
   */
  usage: Usage;
  /**
   * The part of `usage.outputTokens` (and so of `costUsd` and of what `maxBudgetUsd` is checked
   * against) that is an estimate, not a count the provider reported: the output streamed by calls
   * that did not complete, a quarter token per ASCII character and one per other UTF-16 unit of
   * their text, thinking and tool input (redacted thinking and signatures, which stream no
   * readable text, are not in it). Subagents' estimates included. Absent when nothing was estimated.
   */
  estimatedOutputTokens?: number;
  /** Estimated cost in US dollars from the price table; undefined for a model without a price. */
  costUsd: number | undefined;
  /** Model calls made in this run. */
  turns: number;
  /**
   * Why the run's last model answer stopped, as the API reported it (also on that turn's
   * `turn-end`); absent when the run made no model call, except `refusal` for a run that
   * answered the calls of a refused answer a session was read back with (and ended there). A run with status `completed` whose
   * `stopReason` is `max_tokens`, `model_context_window_exceeded` or `refusal` ended on an answer
   * that was cut off: `text` may be a half answer (raise the model's `maxTokens`, ask for less,
   * or continue the session). `end_turn` and `stop_sequence` are answers the model finished.
   * A run with an `outputSchema` never takes a cut-off answer as its `output`: it asks again
   * (`outputRetries`), then ends with a `StructuredOutputError` — except after a refusal, which
   * ends the run at once (status `error`, a `StructuredOutputError` whose `refused` is true).
   * After a refusal no `Stop` hook sends the model back either.
   */
  stopReason?: StopReason | null;
  /**
   * What the API said about that stop beside `stopReason` (its `stop_details`): for a refusal,
   * the policy `category` and an `explanation` to show the user. Absent when it said nothing.
   */
  stopDetails?: StopDetails;
  /** The messages appended to the session during this run, in order. */
  messages: Message[];
  /** Tool calls denied during this run. */
  permissionDenials: PermissionDecision[];
  /** Calls waiting for the host; non-empty exactly when `status` is `awaiting-approval`. */
  pendingApprovals: PendingApproval[];
  /**
   * For a run given an `outputSchema` that completed: its final answer, parsed and validated
   * (typed after the schema). A run whose answer never validated ends with status `error` and a
   * `StructuredOutputError` (with `refused: true` when the model refused to answer).
   */
  output?: Output;
  /** For a run given an `outputSchema`: how many final answers it took (1 when the first was valid). */
  outputAttempts?: number;
  /**
   * The subagent runs of this run (the `Agent` tool), each with its usage; `usage` and `costUsd`
   * above already include them. Absent when no subagent ran.
   */
  subagents?: SubagentRunSummary[];
  /**
   * Background subagent tasks still running when the run ended: the agent's own and those its
   * subagents started, at any depth. Absent when there are none.
   */
  backgroundTasks?: BackgroundTaskInfo[];
  /**
   * With `verifyPlanOnCompletion`: the check of the work against the approved plan, when the run
   * completed with every todo done (also announced as a `plan-verification` event).
   */
  planVerification?: PlanVerification;
  /** The error that ended the run, for status `error`. */
  error?: AgentHarnessError | Error;
}
