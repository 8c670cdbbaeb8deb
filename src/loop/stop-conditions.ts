import type { AgentCore } from '../runtime/agent-core.js';
import type { RunStatus } from '../events/run-result.js';
import type { RunSpend } from '../model/run-spend.js';
import type { RunAbort } from './run-abort.js';

/** What the loop knows when deciding whether to make another model call. */
export interface StopCheck {
  turns: number;
  /** The cost so far of the whole run tree (the outermost run, its subagents and theirs) and its budget. */
  spend: RunSpend;
  abort: RunAbort;
}

/**
 * Checked before every model call: interrupt, `maxTurns`, then the budget (the run tree's cost
 * so far against the outermost agent's `maxBudgetUsd`). Returns the status to end with, or
 * undefined to go on.
 */
export function checkStopConditions(core: AgentCore, check: StopCheck): RunStatus | undefined {
  if (check.abort.aborted) return 'interrupted';
  if (check.turns >= (core.options.maxTurns ?? 30)) return 'max-turns';
  if (check.spend.exhausted) return 'budget-exceeded';
  return undefined;
}
