import type { AgentCore } from '../runtime/agent-core.js';
import type { ModelRequest, ModelResponse } from '../model/model.js';
import type { Usage } from '../model/usage.js';
import { spanAttributes, type SpanLike } from '../telemetry/index.js';
import { runCompaction } from './run-compaction.js';
import { mediaRefusal } from './media-refusal.js';
import { loadOnce } from '../lazy/load-once.js';
import { refusedForSize, tooLargeToSend } from './refused-for-size.js';
import type { ModelError } from '../errors/model-error.js';
import { prepareRequest } from './prepare-request.js';
import { PartialUsage, type CountPartialUsage } from './partial-usage.js';
import { streamTurn, type StreamTurnOptions } from './stream-turn.js';
import type { OutputRequest } from './structured-output.js';
import type { RunAbort } from './run-abort.js';

/** All input tokens of a call: uncached, read from the cache, written to it. */
export function totalInput(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
}

/**
 * What {@link modelTurn} answers instead of a response when the reactive compaction's summary call
 * spent the rest of the run's budget: the turn's call is not made again on top of it.
 */
export const BUDGET_SPENT_COMPACTING: unique symbol = Symbol('budget spent compacting');

/** The request of a turn; replaced when a too-long prompt was compacted and sent again. */
export interface TurnRequest {
  /** The turn's number within the run (as on its `turn-start`). */
  readonly number: number;
  request: ModelRequest;
}

/**
 * The model call of one turn. Media the API refuses (an image it cannot process, a request too
 * large) is replaced in the history by notes and the turn sent again (see `recoverRefusedMedia`).
 * "Prompt is too long", and a request too large (HTTP 413) with no media left to drop, compact
 * the history and try once more (a 413 that cannot be compacted ends the run with an error that
 * names the cure, see `tooLargeToSend`),
 * never leaving a dead session (the compaction's usage goes to `countUsage`, also when it
 * failed), unless the compaction spent the rest of the budget (`spend`): then it answers
 * {@link BUDGET_SPENT_COMPACTING}, as the budget is checked before every model call. With a span (the host traces), the response's attributes are set on it. A function
 * of its own rather than a closure per turn: without a tracer the loop calls it directly.
 */
export async function modelTurn(
  core: AgentCore,
  turn: TurnRequest,
  output: OutputRequest | undefined,
  abort: RunAbort,
  countUsage: CountPartialUsage,
  spend: { readonly exhausted: boolean },
  span: SpanLike | undefined,
): Promise<ModelResponse | typeof BUDGET_SPENT_COMPACTING> {
  const partial = new PartialUsage();
  // One retry budget for the turn: the attempt after a reactive compaction numbers its retries on.
  const streamOptions: StreamTurnOptions = { turn: turn.number, maxRetries: core.options.maxStreamRetries ?? 2, retries: { used: 0 }, abort, partial, countUsage };
  let answer: ModelResponse | typeof BUDGET_SPENT_COMPACTING;
  try {
    try {
      // Raced: interrupt() ends the turn at once even when a Model ignores `request.signal`. The
      // common case, an answer, takes no other step (nor object) than this call.
      answer = await abort.race(streamTurn(core, turn.request, streamOptions));
    } catch (error) {
      answer = await repairTurn({ core, turn, output, abort, countUsage, spend, streamOptions }, error);
    }
  } catch (error) {
    // Given up or failed midway: the call was billed for what it reported (counted at once: an
    // interrupted run's result is settled right after).
    partial.countInto(countUsage);
    throw error;
  }
  if (answer === BUDGET_SPENT_COMPACTING) return answer;
  if (span) {
    const attributes = spanAttributes({
      'gen_ai.response.id': answer.id,
      'gen_ai.response.model': answer.model,
      'gen_ai.response.finish_reasons': answer.stopReason ? [answer.stopReason] : undefined,
      'gen_ai.usage.input_tokens': totalInput(answer.usage),
      'gen_ai.usage.output_tokens': answer.usage.outputTokens,
      'gen_ai.usage.cache_read.input_tokens': answer.usage.cacheReadInputTokens,
      'gen_ai.usage.cache_creation.input_tokens': answer.usage.cacheCreationInputTokens,
    });
    for (const [key, value] of Object.entries(attributes)) span.setAttribute(key, value);
  }
  return answer;
}

/** What a turn's call and its repairs share. */
interface TurnAttempt {
  readonly core: AgentCore;
  readonly turn: TurnRequest;
  readonly output: OutputRequest | undefined;
  readonly abort: RunAbort;
  readonly countUsage: CountPartialUsage;
  readonly spend: { readonly exhausted: boolean };
  readonly streamOptions: StreamTurnOptions;
}

/**
 * After the turn's call failed with `error`: when the API refused it, its repairs in order: the
 * media it refused (replaced by notes), then a history too long or too large (compacted). Each
 * repair sends the turn again from the repaired history; an error none of them applies to (an
 * interruption too) is thrown as it is.
 */
async function repairTurn(attempt: TurnAttempt, error: unknown): Promise<ModelResponse | typeof BUDGET_SPENT_COMPACTING> {
  const { abort, countUsage, streamOptions } = attempt;
  streamOptions.partial.countInto(countUsage);
  if (abort.aborted) throw error;
  let refused = error;
  // Media the API cannot take would be sent again with every later turn: replaced by notes.
  if (mediaRefusal(refused) !== undefined) {
    const repaired = await resendWithoutMedia(attempt, refused as ModelError);
    if ('answer' in repaired) return repaired.answer;
    refused = repaired.refused;
  }
  return resendCompacted(attempt, refused);
}

/** Prepares the turn's request again from the (repaired) history and sends it. */
function resend(attempt: TurnAttempt): Promise<ModelResponse> {
  const { core, turn, abort, output, streamOptions } = attempt;
  turn.request = prepareRequest(core, abort, output);
  return abort.race(streamTurn(core, turn.request, streamOptions));
}

/** The recovery from refused media, loaded the first time the API refuses an image or document (rare, and the turn waits on a resend anyway). */
const loadMediaRecovery = loadOnce(() => import('./recover-refused-media.js'));

/**
 * The turn sent again once the media the API refused is replaced by notes (see
 * `recoverRefusedMedia`); or, for a request too large with no media (left) to drop, that refusal:
 * only a shorter history helps then, as for a prompt too long.
 */
async function resendWithoutMedia(attempt: TurnAttempt, refused: ModelError): Promise<{ answer: ModelResponse } | { refused: unknown }> {
  try {
    const { recoverRefusedMedia } = await loadMediaRecovery();
    return { answer: await recoverRefusedMedia(attempt.core, refused, () => resend(attempt)) };
  } catch (again) {
    if (attempt.abort.aborted || mediaRefusal(again) !== 'too-large') throw again;
    return { refused: again };
  }
}

/**
 * "Prompt is too long", or a request too large (HTTP 413): the history is compacted and the turn
 * sent once more. Any other refusal is thrown as it is; a 413 that compaction cannot cure (off,
 * nothing to compact, blocked, still too large) ends the run with an error naming the cure.
 */
async function resendCompacted(attempt: TurnAttempt, refused: unknown): Promise<ModelResponse | typeof BUDGET_SPENT_COMPACTING> {
  const { core, turn, abort, countUsage, spend } = attempt;
  if (!refusedForSize(refused)) throw refused;
  // A 413 left as it is would be sent again, byte for byte, by every retry and every later run.
  const tooLarge = mediaRefusal(refused) === 'too-large';
  if (!core.context.settings.compaction.enabled) throw tooLarge ? tooLargeToSend(refused as ModelError, 'compaction-off') : refused;
  const reactive = await runCompaction(core, { trigger: 'reactive', signal: abort.signal, countUsage, turn: turn.number });
  if (!reactive.compacted) {
    if (!tooLarge || abort.aborted) throw refused;
    throw tooLargeToSend(refused as ModelError, reactive.skipped === 'nothing-to-compact' ? 'nothing-to-compact' : 'compaction-blocked');
  }
  if (spend.exhausted) return BUDGET_SPENT_COMPACTING;
  try {
    return await resend(attempt);
  } catch (again) {
    if (tooLarge && !abort.aborted && mediaRefusal(again) === 'too-large') throw tooLargeToSend(again as ModelError, 'still-too-large');
    throw again;
  }
}
