import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/**
 * A compaction could not be completed: the summary call failed or returned no summary. The
 * history is left as it was.
 */
export class CompactionError extends AgentHarnessError {
  static readonly code = 'compaction-failed';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(CompactionError.code, message, options);
  }
  static override isInstance = hasCode<CompactionError>(CompactionError.code);
}
