import type { AgentCore } from '../runtime/agent-core.js';
import { ModelError } from '../errors/model-error.js';
import type { ModelRequest, ModelResponse } from '../model/model.js';
import { usageProblem } from '../model/usage.js';
import type { CountPartialUsage, PartialUsage } from './partial-usage.js';
import type { RunAbort } from './run-abort.js';
import { isStreamRetryable, streamRetryDelay, waitBeforeStreamRetry } from './stream-retry-backoff.js';

/** Options of {@link streamTurn}. */
export interface StreamTurnOptions {
  /** The turn's number within the run (as on its `turn-start`). */
  turn: number;
  /** How many times a failure in the middle of the stream is retried (`maxStreamRetries`), per turn. */
  maxRetries: number;
  /**
   * The retries the turn has used so far, counted up here: a turn that calls `streamTurn` again
   * (after a reactive compaction) passes the same object, so its retries are numbered on and
   * `maxRetries` bounds them all.
   */
  retries: { used: number };
  /**
   * The run's interruption. Once it is aborted the stream is read no further and nothing more is
   * emitted: the turn was given up at once (see `RunAbort.race`), and a Model that ignored the
   * signal must not stream into a run that has ended.
   */
  abort: RunAbort;
  /**
   * The usage the current attempt's model reported so far (`usage` events), until the attempt
   * completes: the caller counts it when the turn is given up or fails (see `ModelStreamEvent`).
   * An attempt that failed and is retried here is counted here, through `countUsage`.
   */
  partial: PartialUsage;
  /** Counts the usage of an attempt that failed midway and is retried (with its estimated output, see `PartialUsage`). */
  countUsage: CountPartialUsage;
}

/**
 * Streams one model turn, forwarding text and thinking deltas as events, and returns the
 * assembled response. A retryable failure in the middle of the stream (an `overloaded_error`
 * frame, a dropped connection) repeats the turn up to `maxRetries` times, each announced by a
 * `stream-retry` event before the new attempt streams: the failed attempt's deltas were already
 * emitted, and a host must know to drop them. Nothing is added to the history until a response
 * is complete, so a retry duplicates nothing there.
 * @throws ModelError (or the model's own error) when the turn cannot be completed.
 */
export async function streamTurn(core: AgentCore, request: ModelRequest, options: StreamTurnOptions): Promise<ModelResponse> {
  const { turn, maxRetries, retries, abort, partial } = options;
  const model = core.options.model;
  // One async frame per turn: the attempt's stream is read here, not in a function of its own.
  for (;;) {
    try {
      let response: ModelResponse | undefined;
      partial.clear();
      for await (const event of model.stream(request)) {
        // Stops reading (and so ends the model's stream) once the run is interrupted.
        if (abort.aborted) throw abort.reason;
        if (response !== undefined) {
          throw new ModelError(`The model "${model.modelId}" yielded a ${describeEvent(event)} event after its response; a Model must yield exactly one { type: 'response' } event, last.`);
        }
        switch (event.type) {
          case 'text-delta':
            partial.streamed(event.text);
            core.emit({ type: 'text-delta', text: event.text });
            break;
          case 'thinking-delta':
            partial.streamed(event.thinking);
            core.emit({ type: 'thinking-delta', thinking: event.thinking });
            break;
          case 'tool-input-delta':
            partial.streamed(event.partialJson);
            break;
          case 'usage': {
            const problem = partial.record(event.usage);
            if (problem) throw new ModelError(`The model "${model.modelId}" yielded a usage event whose ${problem}; see ModelStreamEvent for the shape a Model yields.`);
            break;
          }
          case 'response':
            response = event.response;
            break;
          default:
            break;
        }
      }
      if (!response) {
        throw new ModelError(`The model "${model.modelId}" ended its stream without a response event; a Model must yield exactly one { type: 'response' } event last.`, { retryable: true });
      }
      const problem = responseProblem(response);
      if (problem) throw new ModelError(`The model "${model.modelId}" answered with a response whose ${problem}; see ModelResponse for the shape a Model yields.`);
      return response;
    } catch (error) {
      // HTTP-level failures were already retried by the adapter (the SDK's own retry); only
      // failures inside a stream, which carry no HTTP status, are retried here.
      if (!isStreamRetryable(error)) throw error;
      if (retries.used >= maxRetries || abort.aborted) throw error;
      // The failed attempt was billed for what it reported so far: counted before the next one.
      partial.countInto(options.countUsage);
      retries.used++;
      const backoff = core.options.streamRetryBackoff;
      const delayMs = streamRetryDelay(backoff, retries.used, error);
      core.emit({ type: 'stream-retry', turn, retry: retries.used, maxRetries, error, delayMs });
      if (delayMs > 0) {
        // The caller races this turn against the run's interruption: interrupt() and close() end
        // the wait at once; the signal also clears the timer, so nothing is left behind.
        await waitBeforeStreamRetry(backoff, delayMs, abort.signal);
        if (abort.aborted) throw abort.reason;
      }
    }
  }
}

function describeEvent(event: unknown): string {
  const type = (event as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? `"${type.slice(0, 40)}"` : 'malformed';
}

/** What is wrong with a custom model's response, if anything (our adapters always yield the right shape). */
function responseProblem(response: unknown): string | undefined {
  if (typeof response !== 'object' || response === null) return 'value is not an object';
  const { message, usage } = response as Partial<ModelResponse>;
  if (typeof message !== 'object' || message === null || message.role !== 'assistant') return 'message is not an assistant message ({ role: "assistant", content: [...] })';
  if (!Array.isArray(message.content)) return 'message.content is not an array of content blocks';
  return stopDetailsProblem((response as Partial<ModelResponse>).stopDetails) ?? usageProblem(usage);
}

/** What is wrong with a custom model's `stopDetails` (it reaches the run's result as given), if anything. */
function stopDetailsProblem(details: unknown): string | undefined {
  if (details === undefined) return undefined;
  if (typeof details !== 'object' || details === null || typeof (details as { type?: unknown }).type !== 'string') return 'stopDetails is not { type: string, category, explanation }';
  for (const field of ['category', 'explanation'] as const) {
    const value = (details as Record<string, unknown>)[field];
    if (value !== null && typeof value !== 'string') return `stopDetails.${field} is not a string or null`;
  }
  return undefined;
}
