import type { RunResult } from '../events/run-result.js';
import { emptyUsage } from '../model/usage.js';
import { toError } from '../errors/describe-thrown.js';

/** The result of a run that could not start (its session failed to load). */
export function failedBeforeStart(runId: string, sessionId: string, error: unknown): RunResult {
  return {
    status: 'error',
    runId,
    sessionId,
    text: '',
    usage: emptyUsage(),
    costUsd: undefined,
    turns: 0,
    messages: [],
    permissionDenials: [],
    pendingApprovals: [],
    error: toError(error),
  };
}
