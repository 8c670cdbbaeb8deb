import type { RunResult } from '../events/run-result.js';
import { emptyUsage } from '../model/usage.js';
import { toError } from '../errors/describe-thrown.js';

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

