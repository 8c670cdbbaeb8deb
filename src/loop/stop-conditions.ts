import type { AgentCore } from '../runtime/agent-core.js';
import type { RunStatus } from '../events/run-result.js';

/** What the loop knows when deciding whether to make another model call. */
export interface StopCheck {
  turns: number;
  costUsd: number | undefined;
  signal: AbortSignal;
}

/**
 * Checked before every model call: interrupt, `maxTurns`, then `maxBudgetUsd`. Returns the status
 * to end with, or undefined to go on.
 */
export function checkStopConditions(core: AgentCore, check: StopCheck): RunStatus | undefined {
  if (check.signal.aborted) return 'interrupted';
  if (check.turns >= (core.options.maxTurns ?? 30)) return 'max-turns';
  const budget = core.options.maxBudgetUsd;
  if (budget !== undefined && check.costUsd !== undefined && check.costUsd >= budget) return 'budget-exceeded';
  return undefined;
}
