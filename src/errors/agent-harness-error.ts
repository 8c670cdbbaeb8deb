const brand = Symbol.for('agent-harness.error');

/** Options shared by every agent-harness error. */
export interface AgentHarnessErrorOptions {
  /** The underlying error, kept as the native `cause`. */
  cause?: unknown;
}

/**
 * Base class of every error this library throws. Each subclass has a string `code`; check with
 * `AgentHarnessError.isInstance(error)` (or a subclass's own `isInstance`), which also works when
 * two copies of the library are installed.
 */
export class AgentHarnessError extends Error {
  /** Stable machine-readable code, e.g. `configuration`. */
  readonly code: string;
  /** The cross-install brand `isInstance` checks. */
  readonly [brand] = true;

  constructor(code: string, message: string, options: AgentHarnessErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    // Bundlers may rename a class that refers to itself (`_ConfigurationError`); report the real name.
    this.name = new.target.name.replace(/^_+/, '');
    this.code = code;
  }

  /** True for any agent-harness error, across duplicate installs. */
  static isInstance(error: unknown): error is AgentHarnessError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[brand] === true;
  }
}

/** Builds the `isInstance` check of a subclass from its code. */
export function hasCode<T extends AgentHarnessError>(code: string) {
  return (error: unknown): error is T => AgentHarnessError.isInstance(error) && error.code === code;
}
