import { AgentHarnessError, hasCode, type AgentHarnessErrorOptions } from './agent-harness-error.js';

/** Options of {@link TracerError}. */
export interface TracerErrorOptions extends AgentHarnessErrorOptions {
  /** What of the tracer failed: `startActiveSpan`, or a span method such as `span.end`. */
  operation: string;
}

/** The `code` of a {@link TracerError}. */
const CODE = 'tracer';

/**
 * The host's tracer (`createAgent({ tracer })`) threw or misbehaved. It never breaks a run: the
 * work goes on without that span, and the failure is reported once per run in a non-fatal
 * `error` event (later failures of the same run are not reported again).
 */
export class TracerError extends AgentHarnessError {
  static readonly code = CODE;
  /** What of the tracer failed: `startActiveSpan`, or a span method such as `span.end`. */
  readonly operation: string;
  constructor(message: string, options: TracerErrorOptions) {
    super(CODE, message, options);
    this.operation = options.operation;
  }
  static override isInstance = hasCode<TracerError>(CODE);
}
