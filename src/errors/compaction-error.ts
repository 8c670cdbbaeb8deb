import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** Options of the {@link CompactionError} constructor. */
export interface CompactionErrorOptions {
  /** The underlying error (the model's refusal, a hook's failure, …). */
  cause?: unknown;
  /**
   * The history is too long for the context window even after everything a compaction can do
   * (see {@link CompactionError.promptTooLong}).
   * @default false
   */
  promptTooLong?: boolean;
}

/** The `code` of a {@link CompactionError}. */
const CODE = 'compaction-failed';

/**
 * A compaction could not be completed: the summary call failed or returned no summary. The
 * history is left as it was.
 */
export class CompactionError extends AgentHarnessError {
  static readonly code = CODE;
  /**
   * True when what is left cannot fit the context window whatever is dropped: after a "prompt is
   * too long" refusal that no summary could shrink, even the user's latest message with the
   * most recent exchange (the part a compaction keeps verbatim) is too long. Retrying does not
   * help; a shorter message, a model with a larger window or a new session does.
   */
  readonly promptTooLong: boolean;
  constructor(message: string, options: CompactionErrorOptions = {}) {
    super(CODE, message, options);
    this.promptTooLong = options.promptTooLong === true;
  }
  static override isInstance = hasCode<CompactionError>(CODE);
}
