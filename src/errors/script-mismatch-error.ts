import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** The `code` of a {@link ScriptMismatchError}. */
const CODE = 'script-mismatch';

/** A scripted model and the run disagree: a turn was asked for that the script lacks, or turns were left unused. */
export class ScriptMismatchError extends AgentHarnessError {
  static readonly code = CODE;
  constructor(message: string) {
    super(CODE, message);
  }
  static override isInstance = hasCode<ScriptMismatchError>(CODE);
}
