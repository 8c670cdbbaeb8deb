import { runEndError } from '../state/run-end-error.js';
import type { RunResult } from '../events/run-result.js';
import type { AgentCore } from '../runtime/agent-core.js';
import { failedBeforeStart } from './failed-before-start.js';

/**
 * The result of a run whose loop threw (which it never should): status `error` with what was
 * thrown, told in a fatal `error` event and `run-end` like any failed run. What the run did
 * before is in the session, not in this result (its messages, turns and usage are unknown here).
 */
export function endRunByThrow(core: AgentCore, runId: string, thrown: unknown): RunResult {
  const result = failedBeforeStart(runId, core.sessionId, thrown);
  // What broke the loop may break these too: each is tried alone, and the result is the run's answer regardless.
  const steps = [
    () => core.emit({ type: 'error', error: result.error!, fatal: true }),
    () => core.commit({ kind: 'run-end', runId, status: result.status, usage: result.usage, error: runEndError(result.error!) }),
    () => core.emit({ type: 'run-end', result }),
  ];
  for (const step of steps) {
    try {
      step();
    } catch {
      // Nothing more to tell it with.
    }
  }
  return result;
}
