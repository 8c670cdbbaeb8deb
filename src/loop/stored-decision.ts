import type { AgentCore } from '../runtime/agent-core.js';
import type { PermissionDecision } from '../types/permission.js';

/**
 * The decision as the transcript keeps it: for an allowed call whose input is the one the
 * `call-allowed` entry written with it records (`runs`), without `input`. Stored whole, a 50 KB
 * `Write` of an article went into the transcript three times (the model's call, the decision, the
 * allowed call), in every store. The `permission-decision` event keeps the whole decision, and an
 * agent without a store (nothing written) keeps it as it is, at no cost.
 */
export function storedDecision(core: AgentCore, decision: PermissionDecision, runs: unknown): PermissionDecision {
  if (core.journal === undefined || decision.behavior !== 'allow' || decision.input !== runs || !('input' in decision)) return decision;
  const { input: _input, ...kept } = decision;
  return kept;
}
