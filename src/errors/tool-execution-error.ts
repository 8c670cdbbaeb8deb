import { AgentHarnessError, hasCode, type AgentHarnessErrorOptions } from './agent-harness-error.js';

/** The `code` of a {@link ToolExecutionError}. */
const CODE = 'tool-execution';

/** A tool threw or timed out while executing. The model sees it as an error result. */
export class ToolExecutionError extends AgentHarnessError {
  static readonly code = CODE;
  /** The tool that failed. */
  readonly toolName: string;
  /** True when the tool ran past its `timeoutMs`. */
  readonly timedOut: boolean;
  constructor(toolName: string, message: string, options: AgentHarnessErrorOptions & { timedOut?: boolean } = {}) {
    super(CODE, message, options);
    this.toolName = toolName;
    this.timedOut = options.timedOut ?? false;
  }
  static override isInstance = hasCode<ToolExecutionError>(CODE);
}
