import type { RunResult } from '../events/run-result.js';
import { cutOffReason, isCutOff } from '../loop/cut-off-answer.js';

/**
 * The report of a subagent whose run completed, as the model that started it is told of it (a
 * foreground call's result, a background task's output): a report cut off (`max_tokens`, the
 * context window, a refusal) is said to be one, and a refusal without text is told as a refusal,
 * not as a report that was finished.
 * @param withholdRefused - a refused answer's text is left out too (the agent option
 *   `refusedAnswers: 'withhold'`): carried into the parent's history, it would be the refused
 *   context the API asks not to go on from. The host still has it (the subagent's events, `RunResult.subagents`).
 */
export function completedReport(result: Pick<RunResult, 'text' | 'stopReason'>, withholdRefused = false): string {
  if (result.stopReason === 'refusal' && withholdRefused && result.text.trim() !== '') return `The subagent gave no report: ${cutOffReason('refusal')}; what it had written is withheld.`;
  if (result.text.trim() === '') return result.stopReason === 'refusal' ? `The subagent gave no report: ${cutOffReason('refusal')}.` : 'The subagent finished without a final message.';
  return isCutOff(result.stopReason) ? `${result.text}\n\n(This report was cut off before it ended: ${cutOffReason(result.stopReason)}. It may be incomplete.)` : result.text;
}
