import type { StopReason } from '../model/model.js';

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
