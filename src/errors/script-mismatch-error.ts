import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** A scripted model and the run disagree: a turn was asked for that the script lacks, or turns were left unused. */
export class ScriptMismatchError extends AgentHarnessError {
  static readonly code = 'script-mismatch';
  constructor(message: string) {
    super(ScriptMismatchError.code, message);
  }
  static override isInstance = hasCode<ScriptMismatchError>(ScriptMismatchError.code);
}
