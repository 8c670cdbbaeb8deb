import { describeThrown } from './describe-thrown.js';

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

  /**
   * The error as JSON: its `name`, `code` and `message`, its own fields (a `SessionConflictError`'s
   * `sessionId`, say), and its `cause` by name and message. `JSON.stringify` of an `Error` leaves
   * the message out, so a host that sends an error in a JSON response, or logs it as JSON, would
   * lose the sentence that says what went wrong and how to fix it.
   */
  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = { name: this.name, code: this.code, message: this.message };
    for (const key of Object.keys(this)) if (!(key in json)) json[key] = (this as unknown as Record<string, unknown>)[key];
    if (this.cause !== undefined) json.cause = causeAsJson(this.cause);
    return json;
  }

  /** True for any agent-harness error, across duplicate installs. */
  static isInstance(error: unknown): error is AgentHarnessError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[brand] === true;
  }
}

/**
 * A cause as {@link AgentHarnessError.toJSON} writes it: an agent-harness error as its own JSON,
 * another error by its name, message and code, anything else as its text (a cause may be any
 * thrown value, a cyclic object too, and writing the error out must not fail on it).
 */
function causeAsJson(cause: unknown): unknown {
  if (AgentHarnessError.isInstance(cause)) return cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return { name: String(cause.name), message: describeThrown(cause), ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}) };
  }
  return describeThrown(cause);
}

/** Builds the `isInstance` check of a subclass from its code. */
export function hasCode<T extends AgentHarnessError>(code: string) {
  return (error: unknown): error is T => AgentHarnessError.isInstance(error) && error.code === code;
}
