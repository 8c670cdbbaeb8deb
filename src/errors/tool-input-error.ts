import { AgentHarnessError, hasCode, type AgentHarnessErrorOptions } from './agent-harness-error.js';

/** The `code` of a {@link ToolInputError}. */
const CODE = 'tool-input';

/** A tool input failed schema validation or the tool's own `validateInput`. */
export class ToolInputError extends AgentHarnessError {
  static readonly code = CODE;
  /** The tool whose input was rejected. */
  readonly toolName: string;
  /** One line per problem, each naming the field (`todos.0.status: Invalid option`). */
  readonly issues: string[];
  constructor(toolName: string, issues: string[], options?: AgentHarnessErrorOptions) {
    super(CODE, `Invalid input for tool "${toolName}": ${issues.join('; ')}`, options);
    this.toolName = toolName;
    this.issues = issues;
  }
  static override isInstance = hasCode<ToolInputError>(CODE);
}
