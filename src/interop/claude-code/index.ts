/**
 * Reading Claude Code's own files: session transcripts (`~/.claude/projects/…/*.jsonl`), their
 * subagent sidechains, and the plan file backups of its file checkpoints. Runtime-neutral; the
 * file reading lives in `node/claude-code/`.
 */
export {
  readClaudeCodeSession,
  type ReadClaudeCodeSessionOptions,
  type ClaudeCodeSessionSource,
} from './read-claude-code-session.js';
export { onceReader, readPendingBackups, type ClaudeCodeSessionReader } from './claude-code-session-reader.js';
export { ClaudeCodeSessionNormalizer, type ClaudeCodeSessionNormalizerOptions } from './claude-code-session-normalizer.js';
export type {
  ClaudeCodeSessionStats,
  ClaudeCodeSessionWarning,
  ClaudeCodeSubagent,
  ClaudeCodeFileBackup,
  ReadClaudeCodeFileBackup,
} from './claude-code-session-types.js';
export { isSafeBackupFileName } from './claude-code-plan-files.js';
export { EXIT_PLAN_MODE_TOOLS, SUBAGENT_TOOLS, TODO_TOOLS, toolInputObject } from './claude-code-tools.js';
