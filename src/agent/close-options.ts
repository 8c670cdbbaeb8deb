/** Options of `agent.close()`. */
export interface CloseOptions {
  /**
   * Why the session ends, for the `SessionEnd` hooks.
   * @default 'closed'
   */
  reason?: string;
  /**
   * Stops `close()` waiting on the `SessionEnd` hooks: once it aborts (also when it already has as
   * `close()` starts), the running hook's `signal` aborts and it is no longer waited on, later
   * hooks get an aborted signal and are not waited on either, each such hook is reported as a
   * non-fatal `error` event, and `close()` goes on closing (MCP connections, store writes).
   * Without it, a hook that hangs holds `close()` until its own `timeoutMs` passes (60 s by
   * default). `AbortSignal.timeout(ms)` makes a shutdown deadline.
   * @default undefined (the hooks are stopped only by their `timeoutMs`)
   */
  signal?: AbortSignal;
}
