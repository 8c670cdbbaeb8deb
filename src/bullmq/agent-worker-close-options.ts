/** Options of `AgentWorker.close()`: how long a shutdown (a SIGTERM, a deploy) waits for the jobs under way. */
export interface AgentWorkerCloseOptions {
  /**
   * Stops the jobs under way at once instead of waiting for them to finish. For each, the worker
   * first stops the job's writes: the appends already under way (a tool's result being stored)
   * are let land under the lease, and any later one is refused, so nothing more of the run is
   * written (not its end), even when the lease cannot be released. It interrupts the agent (its
   * model call and a tool under way are aborted through their `signal`, and not waited on) and
   * puts the job back on the queue without counting an attempt; once the appends under way have
   * settled it releases its lease on the session (one it fails to release, or that a store that
   * never answers keeps, runs out after `leaseTtlMs`). The next worker resumes the
   * session where it stopped: the prompt is not sent again, completed tool calls are not run
   * again, and a call with no stored result is answered as interrupted, not run again. That is
   * also the answer for a tool that finishes after the writes stopped: without the lease its
   * result cannot be stored, and a forced close cannot wait for a tool that may never end.
   * `close({ force: true })` while a gentler `close()` waits stops the jobs too.
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
