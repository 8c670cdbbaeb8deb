import { describeThrown } from '../errors/describe-thrown.js';
import { PlanVerificationError } from '../errors/plan-verification-error.js';
import { StructuredOutputError } from '../errors/structured-output-error.js';
import type { RunResult } from '../events/run-result.js';
import type { AgentOptions } from '../runtime/agent-options.js';

/** What the verifier ran with, for the message. */
type VerifierLimits = Pick<AgentOptions, 'maxTurns' | 'maxBudgetUsd'>;

/** Why the verifier's run, which ended without a verdict, gave none; and what to do about it. */
function explain(result: RunResult, limits: VerifierLimits): string {
  const error = result.error;
  switch (result.status) {
    case 'interrupted':
      return "The plan verifier was interrupted before it gave a verdict (verifyPlan's signal aborted, or the run verifying on completion was interrupted or the agent closed). Run verifyPlan again to check the plan.";
    case 'max-turns':
      return `The plan verifier reached its turn limit (maxTurns: ${limits.maxTurns ?? 'default'}) before it gave a verdict. Raise the agent's maxTurns, or verify a shorter plan.`;
    case 'budget-exceeded':
      return `The plan verifier reached the budget (maxBudgetUsd: ${limits.maxBudgetUsd}) before it gave a verdict. Raise maxBudgetUsd, or verify with a cheaper model: verifyPlan({ agent, model }).`;
    case 'awaiting-approval': {
      const tool = result.pendingApprovals[0]?.toolName ?? 'a tool';
      return `The plan verifier stopped to wait for an approval of its call to ${tool} (an ask rule, a hook or the tool's own check asks for it), which verifyPlan cannot give. Allow the call (an allow rule for ${tool}, say) or give the agent a canUseTool that answers, then run verifyPlan again.`;
    }
    default:
      if (StructuredOutputError.isInstance(error) && error.refused) {
        return `The plan verifier's model refused to give a verdict (stop reason "refusal"), so there is none; it was not asked again, since going on from a refused answer tends to be refused again. Check the plan and the work against the model's usage policy, or verify with another model: verifyPlan({ agent, model }).`;
      }
      if (StructuredOutputError.isInstance(error)) {
        const issues = error.issues.slice(0, 3).join('; ');
        return `The plan verifier gave no valid verdict after ${error.attempts} answer(s)${issues ? ` (${issues})` : ''}. Run verifyPlan again, or give it a more capable model: verifyPlan({ agent, model }).`;
      }
      if (error) return `The plan verifier failed: ${describeThrown(error)} Fix the cause, then run verifyPlan again.`;
      return `The plan verifier ended (${result.status}) without a verdict. Run verifyPlan again.`;
  }
}

/** The error `verifyPlan` throws for a verifier run that ended without a valid verdict. */
export function verifierFailure(result: RunResult, limits: VerifierLimits): PlanVerificationError {
  const status = result.status === 'completed' ? 'error' : result.status;
  return new PlanVerificationError(explain(result, limits), { status, text: result.text, ...(result.error ? { cause: result.error } : {}) });
}

/** The error `verifyPlan` throws when it was stopped while the verifier waited for a place (it never started). */
export function verifierNotStarted(reason: unknown): PlanVerificationError {
  return new PlanVerificationError(
    "The plan verification was interrupted before the verifier started: it was stopped (verifyPlan's signal aborted, or the run verifying on completion was interrupted) while it waited for a place under maxSubagentConcurrency (the agent's subagents held every place). Run verifyPlan again once they have finished, or raise maxSubagentConcurrency.",
    { status: 'interrupted', cause: reason },
  );
}
