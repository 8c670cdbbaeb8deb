import { ApprovalClaimedError } from '../errors/approval-claimed-error.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import { raceAbort } from '../permissions/race-abort.js';
import type { AgentCore } from '../runtime/agent-core.js';
import { applyApprovalDecision, type ApprovalDecision } from './apply-approval-decision.js';
import { resumeCall } from './execute-tools.js';
import type { RunContext } from './loop-run-context.js';
import type { TurnDecisions } from './resolve-turn.js';
import { unreachableMcpServer } from './unreachable-mcp-server.js';

/** The host's answer to a pending approval, addressed by its id and path (`[toolUseId]` for the agent's own calls). */
export interface ApprovalAnswer {
  id: string;
  path: string[];
  decision: ApprovalDecision;
}

/** A value as an error message shows it: short, never the whole object. */
function describeValue(value: unknown): string {
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/**
 * Applies the host's answer to a pending approval: after the host's `claimApproval` agrees it is
 * the first answer, to the agent's own deferred call, or — down the path — to the nested run a
 * suspended call waits on. Returns an error when the answer may not be applied.
 */
export async function answerApproval(core: AgentCore, approval: ApprovalAnswer, context: RunContext, decisions: TurnDecisions): Promise<Error | undefined> {
  const batch = core.state.openBatch;
  const call = batch?.calls.find((candidate) => candidate.toolUseId === approval.path[0]);
  if (!batch || !call) return undefined;
  // Before the claim: an answer that cannot be applied yet must not use up the host's claim key.
  if (approval.decision.behavior === 'allow') {
    const unreachable = unreachableMcpServer(core, approval.id);
    if (unreachable) return unreachable;
  }
  const claim = core.options.claimApproval;
  if (claim) {
    // Raced with an interrupt: a claim that hangs (a stuck database) must not hold the run or close().
    const raced = await raceAbort(() => claim({ approvalId: approval.id, sessionId: core.sessionId, toolUseId: approval.path[approval.path.length - 1]!, signal: context.abort.signal }), context.abort.signal);
    if (raced.aborted) return undefined;
    const claimed: unknown = raced.value;
    // Only `true` claims: a query result or a count is truthy whether or not the key was taken.
    if (claimed === false) return new ApprovalClaimedError(core.sessionId, approval.id);
    if (claimed !== true) {
      return new ConfigurationError(
        `claimApproval must return true (this answer is the first) or false (it was answered already), got ${describeValue(claimed)}; nothing was run. Return, e.g., result.rowCount === 1 after an INSERT … ON CONFLICT DO NOTHING.`,
      );
    }
  }
  if (approval.path.length === 1) {
    if (call.state === 'deferred' && call.approval?.id === approval.id) {
      if (await applyApprovalDecision(core, call, approval.decision, context.abort.signal)) decisions.stopRequested = true;
    }
    return undefined;
  }
  if (call.state === 'suspended') await resumeCall(core, call, { id: approval.id, path: approval.path.slice(1), decision: approval.decision }, context);
  return undefined;
}
