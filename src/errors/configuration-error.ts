import { AgentHarnessError, hasCode, type AgentHarnessErrorOptions } from './agent-harness-error.js';

/** The `code` of a {@link ConfigurationError}. */
const CODE = 'configuration';

/** An option passed to the library is missing, malformed or contradicts another. */
export class ConfigurationError extends AgentHarnessError {
  static readonly code = CODE;
  constructor(message: string, options?: AgentHarnessErrorOptions) {
    super(CODE, message, options);
  }
  static override isInstance = hasCode<ConfigurationError>(CODE);
}
