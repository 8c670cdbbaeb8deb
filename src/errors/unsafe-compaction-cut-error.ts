import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** The `code` of a {@link UnsafeCompactionCutError}. */
const CODE = 'unsafe-compaction-cut';

/**
 * A compaction was asked to cut the history where a tool call is open: the call before the cut
 * would lose its result (or the result after it its call), and the API would refuse the history.
 */
export class UnsafeCompactionCutError extends AgentHarnessError {
  static readonly code = CODE;
  /** The index of the first kept message that was asked for. */
  readonly cut: number;
  /** The length of the history. */
  readonly length: number;
  constructor(cut: number, length: number) {
    super(
      CODE,
      `Cannot cut the history before message ${cut} of ${length}: a tool call there would lose its result. Pick the cut with findCompactionCut(), or check it with isSafeCut().`,
    );
    this.cut = cut;
    this.length = length;
  }
  static override isInstance = hasCode<UnsafeCompactionCutError>(CODE);
}
