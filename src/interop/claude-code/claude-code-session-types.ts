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
  /**
   * Lines skipped as repeats: a line whose `uuid` was just read, a line of a message whose
   * blocks were all read already, or a line of a message that was already complete (reported).
   */
  duplicateLines: number;
  /** Content blocks dropped because they lacked what their type needs (each reported). */
  droppedBlocks: number;
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

/** A subagent of a Claude Code session and the tool call that started it. */
export interface ClaudeCodeSubagent {
  /** The subagent's id, as its entries carry it in `agentId`. */
  agentId: string;
  /** The parent's `tool_use` id that started it. */
  toolUseId: string;
  /** The tool: `Task` (Claude Code up to 2.1.x) or `Agent` (later versions). */
  toolName: string;
  /** The agent type the call asked for (`general-purpose`, `Explore`, ...), when it named one. */
  subagentType?: string;
  /** The call's short description, when it gave one. */
  description?: string;
  /** The agent that made the call, when it was itself a subagent. */
  parentAgentId?: string;
}

/**
 * A backup of a plan file kept by Claude Code's file checkpoints
 * (`~/.claude/file-history/<sessionId>/<backupFileName>`), for `readFileBackup` to read.
 */
export interface ClaudeCodeFileBackup {
  /** The session whose file history holds the backup. */
  sessionId: string;
  /** The tracked path as Claude Code recorded it (absolute, or relative to the project). */
  filePath: string;
  /** The backup's file name, a plain name such as `3f2a9c0d1e2b4a5f@v2` (checked: never a path). */
  backupFileName: string;
  /** The backup's version number, when recorded. */
  version?: number;
  /** When the backup was taken (ISO 8601), when recorded. */
  backupTime?: string;
}

/**
 * Reads a plan file backup; `undefined` (or a throw, reported as a warning) when it cannot.
 * Called one backup at a time, while the reading of lines waits.
 */
export type ReadClaudeCodeFileBackup = (backup: ClaudeCodeFileBackup) => string | undefined | Promise<string | undefined>;
