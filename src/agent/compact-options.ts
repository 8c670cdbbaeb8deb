/** Options of `agent.compact()`. */
export interface CompactOptions {
  /**
   * Extra instructions for this summary (e.g. "keep every file path"), after the options' own.
   * @default undefined
   */
  instructions?: string;
  /**
   * Stops the compaction like `agent.interrupt()`: the summary call is aborted, the history is
   * unchanged, and `compact()` resolves with `skipped: 'interrupted'`.
   * @default undefined
   */
  signal?: AbortSignal;
}
