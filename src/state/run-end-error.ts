import { AgentHarnessError } from '../errors/agent-harness-error.js';
import { headOfText } from '../model/code-point-boundary.js';

/** The longest error message a `run-end` entry keeps: enough to tell the failure, never a page. */
const MAX_MESSAGE = 1000;

/** What a `run-end` entry keeps of the error that ended its run (status `error`). */
export interface RunEndError {
  /** The error's `code` (`model`, `mcp-connection`, `session-write`, …); `error` for one that has none. */
  code: string;
  /** Its message, cut to 1000 characters. */
  message: string;
  /** Set (true) when a later attempt may get past it: a model error the API marked retryable. */
  retryable?: true;
}

/**
 * The record of the error that ended a run, for its `run-end` entry: a worker that takes over a
 * job whose worker died after storing the run's end tells an outage (retried while attempts are
 * left) from a failure for good by it.
 */
export function runEndError(error: Error): RunEndError {
  const code = AgentHarnessError.isInstance(error) ? error.code : 'error';
  const message = error.message.length > MAX_MESSAGE ? `${headOfText(error.message, MAX_MESSAGE - 1)}…` : error.message;
  return (error as { retryable?: unknown }).retryable === true ? { code, message, retryable: true } : { code, message };
}
