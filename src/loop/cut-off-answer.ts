import type { StopDetails, StopReason } from '../model/model.js';

/** The stop reasons of an answer that ended before the model finished it. */
export type CutOffStopReason = Extract<StopReason, 'max_tokens' | 'model_context_window_exceeded' | 'refusal'>;

/** Whether an answer with this stop reason was cut off (the output limit, the context window, a refusal) rather than finished. */
export function isCutOff(stopReason: StopReason | null | undefined): stopReason is CutOffStopReason {
  return stopReason === 'max_tokens' || stopReason === 'model_context_window_exceeded' || stopReason === 'refusal';
}

/** Why an answer was cut off, in a sentence's words, with what would help. */
export function cutOffReason(stopReason: CutOffStopReason): string {
  if (stopReason === 'max_tokens') return 'it reached the output limit (stop reason "max_tokens")';
  if (stopReason === 'model_context_window_exceeded') return 'it filled the model\'s context window (stop reason "model_context_window_exceeded")';
  return 'the model stopped it as a refusal (stop reason "refusal")';
}

/**
 * The `warning` a run that completed on a cut-off answer emits: what happened to `result.text`,
 * and what would help.
 */
export function cutOffWarning(stopReason: CutOffStopReason, details?: StopDetails): string {
  const what = `The run completed on an answer that was cut off before it ended: ${cutOffReason(stopReason)}, so result.text may be incomplete.`;
  if (stopReason === 'max_tokens') return `${what} Raise the model's output limit (anthropicModel({ maxTokens })), or ask for a shorter answer.`;
  if (stopReason === 'model_context_window_exceeded') {
    return `${what} Free context before the next run: compact the history (agent.compact(), or a lower context.compaction threshold), or use a model with a larger context window.`;
  }
  const said = details?.explanation ? ` The API's explanation${details.category ? ` (category "${details.category}")` : ''}: ${JSON.stringify(details.explanation)}.` : '';
  return `${what}${said} The model declined to go on, and no tool call of a refused answer is run; going on from it as it is tends to be refused again, so rephrase the request, or check it against the model's usage policy.`;
}
