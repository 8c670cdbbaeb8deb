import type { SessionEntry } from '../state/entries.js';
import type { RunEndError } from '../state/run-end-error.js';

/** How far a job's run went, read from the session's transcript. */
export interface JobProgress {
  /** The status its run ended with, when a `run-end` with its run id is stored. */
  endedWith: string | undefined;
  /**
   * How many `run-end`s with its run id and status `error` are stored: one per attempt an outage
   * failed (each counted by BullMQ), and one more when an attempt then failed for good.
   */
  errorEnds: number;
  /** What the last of those ends recorded of its error (absent in ends stored by earlier versions). */
  lastError: RunEndError | undefined;
  /** A `run-start` with its run id is stored. */
  started: boolean;
  /** A user message was stored after that `run-start`, before another run started: the job's prompt reached the session. */
  promptDelivered: boolean;
}

/**
 * Reads a job's progress from a transcript: a worker that takes over a job whose worker died
 * continues its run instead of starting it again (the prompt is not sent twice, an approval is
 * not answered twice, and what ran is not run again).
 */
export function jobProgress(entries: readonly SessionEntry[], runId: string): JobProgress {
  const progress: JobProgress = { endedWith: undefined, errorEnds: 0, lastError: undefined, started: false, promptDelivered: false };
  // Only a user message of the job's own run is its prompt: a worker that died between storing
  // its run's start and its prompt may see another job's run of the session go first.
  let inJobRun = false;
  for (const entry of entries) {
    if (entry.kind === 'run-start') {
      inJobRun = entry.runId === runId;
      if (inJobRun) progress.started = true;
    } else if (entry.kind === 'run-end' && entry.runId === runId) {
      progress.endedWith = entry.status;
      if (entry.status === 'error') {
        progress.errorEnds++;
        progress.lastError = entry.error;
      }
    }
    else if (inJobRun && entry.kind === 'message' && entry.message.role === 'user') progress.promptDelivered = true;
  }
  return progress;
}
