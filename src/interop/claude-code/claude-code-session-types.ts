/** Counts gathered while reading a Claude Code session. */
export interface ClaudeCodeSessionStats {
  /** Lines read, empty ones included. */
  lines: number;
  /**
   * Lines that were not JSON objects with a `type` (skipped), or that began with a torn record
   * (the record appended onto it is read); each is reported through `onWarning`.
   */
  malformedLines: number;
  /** Well-formed lines of kinds that carry no conversation (progress, snapshots, hook summaries, ...). */
  skippedLines: number;
  /** The skipped lines by kind: `progress`, `system/turn_duration`, `attachment/plan_mode`, ... */
  skippedByKind: Record<string, number>;
  /** Entries yielded. */
  entries: number;
  /** Message entries yielded (after merging). */
  messages: number;
  /** Assistant lines folded into an earlier line of the same provider message (`message.id`). */
  mergedLines: number;
}

/** A problem with one line; reading goes on. */
export interface ClaudeCodeSessionWarning {
  /** What is wrong, as a sentence. */
  message: string;
  /** 1-based line number within its file or source. */
  lineNumber: number;
  /** The file or source label the line came from, when known. */
  source?: string;
}
