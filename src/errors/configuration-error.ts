import { AgentHarnessError, hasCode, type AgentHarnessErrorOptions } from './agent-harness-error.js';

/** An option passed to the library is missing, malformed or contradicts another. */
export class ConfigurationError extends AgentHarnessError {
  static readonly code = 'configuration';
  constructor(message: string, options?: AgentHarnessErrorOptions) {
    super(ConfigurationError.code, message, options);
  }
  static override isInstance = hasCode<ConfigurationError>(ConfigurationError.code);
}
