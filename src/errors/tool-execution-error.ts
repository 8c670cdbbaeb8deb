import { AgentHarnessError, hasCode, type AgentHarnessErrorOptions } from './agent-harness-error.js';

/** A tool threw or timed out while executing. The model sees it as an error result. */
export class ToolExecutionError extends AgentHarnessError {
  static readonly code = 'tool-execution';
  /** The tool that failed. */
  readonly toolName: string;
  /** True when the tool ran past its `timeoutMs`. */
  readonly timedOut: boolean;
  constructor(toolName: string, message: string, options: AgentHarnessErrorOptions & { timedOut?: boolean } = {}) {
    super(ToolExecutionError.code, message, options);
    this.toolName = toolName;
    this.timedOut = options.timedOut ?? false;
  }
  static override isInstance = hasCode<ToolExecutionError>(ToolExecutionError.code);
}
