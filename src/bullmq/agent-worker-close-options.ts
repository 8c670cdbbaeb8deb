/** Options of `AgentWorker.close()`: how long a shutdown (a SIGTERM, a deploy) waits for the jobs under way. */
export interface AgentWorkerCloseOptions {
  /**
   * Stops the jobs under way at once instead of waiting for them to finish. For each, the worker
   * releases its lease on the session first (so nothing more of the run is written: what the run
   * did so far stays in the session), then interrupts the agent (its model call and a tool under
   * way are aborted through their `signal`, and not waited on), and puts the job back on the queue
   * without counting an attempt. The next worker resumes the session where it stopped: the prompt
   * is not sent again, completed tool calls are not run again, and a call that was running is
   * answered as interrupted, not run again. `close({ force: true })` while a gentler `close()`
   * waits stops the jobs too.
   * @default false (wait for the jobs under way to finish)
   */
  force?: boolean;
  /**
   * How long to let the jobs under way finish on their own before they are stopped as with
   * `force` (e.g. a few seconds less than the host's own shutdown grace period).
   * @default undefined (wait for them however long they take)
   */
  timeoutMs?: number;
  /**
   * Stops the jobs under way as with `force` once it aborts (at once if it already has), e.g. the
   * host's own shutdown deadline (`AbortSignal.timeout(ms)`) or a second SIGTERM.
   * @default undefined
   */
  signal?: AbortSignal;
}
