import { AgentHarnessError, hasCode, type AgentHarnessErrorOptions } from './agent-harness-error.js';

/**
 * How a plan verifier's run ended without a verdict: `error` (no valid verdict, or a failure such
 * as the model's, see `cause`), `interrupted` (the signal aborted or the agent was closed, before
 * or while it ran), `max-turns`, `budget-exceeded`, or `awaiting-approval` (one of its calls must
 * be asked, and `verifyPlan` cannot answer).
 */
export type PlanVerificationFailure = 'error' | 'interrupted' | 'max-turns' | 'budget-exceeded' | 'awaiting-approval';

/** Options of {@link PlanVerificationError}. */
export interface PlanVerificationErrorOptions extends AgentHarnessErrorOptions {
  /** How the verifier's run ended. */
  status: PlanVerificationFailure;
  /**
   * The verifier's last message.
   * @default ''
   */
  text?: string;
}

/** The `code` of a {@link PlanVerificationError}. */
const CODE = 'plan-verification';

/**
 * The plan verifier (`verifyPlan`, `verifyPlanOnCompletion`) ended without a valid verdict. The
 * message says what happened and what to do; `status` tells the cases apart, and `cause` holds
 * the underlying error (a `StructuredOutputError` when no answer was a valid verdict, a
 * `ModelError`, the abort reason).
 */
export class PlanVerificationError extends AgentHarnessError {
  /** The `code` of every PlanVerificationError. */
  static readonly code = CODE;
  /** How the verifier's run ended. */
  readonly status: PlanVerificationFailure;
  /** The verifier's last message ('' when it had none). */
  readonly text: string;
  constructor(message: string, options: PlanVerificationErrorOptions) {
    super(CODE, message, options);
    this.status = options.status;
    this.text = options.text ?? '';
  }
  /** True for a PlanVerificationError, across duplicate installs. */
  static override isInstance = hasCode<PlanVerificationError>(CODE);
}
