import type { BackgroundTaskInfo } from '../events/run-result.js';

/** A background subagent task at work, as the top agent of its tree keeps it. */
export interface BackgroundTaskRun {
  /** What it is (status `running`). */
  info: BackgroundTaskInfo;
  /** Stops it (`agent.close()` aborts it). */
  controller: AbortController;
  /** Resolves once it has ended and what it ends with is recorded; never rejects. */
  ended: Promise<void>;
}
