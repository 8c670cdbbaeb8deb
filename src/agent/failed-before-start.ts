import type { RunResult } from '../events/run-result.js';
import { emptyUsage } from '../model/usage.js';
import { toError } from '../errors/describe-thrown.js';
import { onAbort } from '../loop/on-abort.js';

/** The result of a run that could not start (its session failed to load). */
export function failedBeforeStart(runId: string, sessionId: string, error: unknown): RunResult {
  return { ...interruptedBeforeStart(runId, sessionId), status: 'error', error: toError(error) };
}

/** The result of a run interrupted before it started (while its session loaded or its tool sources connected): nothing was recorded. */
export function interruptedBeforeStart(runId: string, sessionId: string): RunResult {
  return {
    status: 'interrupted',
    runId,
    sessionId,
    text: '',
    usage: emptyUsage(),
    costUsd: undefined,
    turns: 0,
    messages: [],
    permissionDenials: [],
    pendingApprovals: [],
  };
}

/**
 * Waits for the agent to be ready unless the run is interrupted first: true when ready, false
 * when the signal aborted (an MCP server still connecting does not hold an interrupt for its
 * whole connect timeout). Rejects when loading failed.
 */
export function readyUnlessAborted(ready: Promise<void>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve, reject) => {
    const stop = onAbort(signal, () => resolve(false));
    ready.then(
      () => {
        stop();
        resolve(true);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}
