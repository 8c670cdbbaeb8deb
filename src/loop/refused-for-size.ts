import { promptTooLong } from '../context/index.js';
import { ModelError } from '../errors/model-error.js';
import { mediaRefusal } from './media-refusal.js';

/**
 * Whether the API refused a request for its size, which only a shorter history cures: "prompt is
 * too long" (over the context window, in tokens) or HTTP 413 `request_too_large` (over the body
 * limit, in bytes). Sending the same history again is refused the same way.
 */
export function refusedForSize(error: unknown): boolean {
  return promptTooLong(error) !== undefined || mediaRefusal(error) === 'too-large';
}

/** Why a request refused as too large could not be made smaller. */
export type TooLargeCause = 'compaction-off' | 'nothing-to-compact' | 'compaction-blocked' | 'still-too-large';

/**
 * The error a run ends with when the API refused its request as too large (HTTP 413) and nothing
 * could shorten it: no media was left to drop and the history could not be compacted (or was,
 * and the request is still too large). It names
 * what was refused, what was tried and the cure; not retryable (the same bytes would be refused).
 */
export function tooLargeToSend(refused: ModelError, cause: TooLargeCause): ModelError {
  const status = `HTTP ${refused.status ?? 413} ${refused.errorType ?? 'request_too_large'}`;
  const why =
    cause === 'compaction-off'
      ? 'context compaction is off (context: { compaction: false }), so the history was not compacted'
      : cause === 'compaction-blocked'
        ? 'the compaction that would shorten the history did not happen (interrupted)'
        : cause === 'still-too-large'
          ? "the history was compacted and the request is still too large (the user's latest message, with what it carries, is too large by itself)"
          : "the history has nothing to compact (the user's latest message, with what it carries, is too large by itself)";
  const cure =
    cause === 'compaction-off'
      ? 'Call agent.compact() (or turn compaction on) and run again, or continue in a new session.'
      : 'Send a shorter message (or smaller tool results), or continue in a new session.';
  return new ModelError(
    `The API refused the request as too large (${status}): no images or documents were left in the history to drop and ${why}, so sending it again would be refused the same way. ${cure}`,
    {
      cause: refused,
      retryable: false,
      status: refused.status ?? 413,
      errorType: refused.errorType ?? 'request_too_large',
      ...(refused.requestId === undefined ? {} : { requestId: refused.requestId }),
    },
  );
}
