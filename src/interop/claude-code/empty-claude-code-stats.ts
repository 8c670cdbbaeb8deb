import type { ClaudeCodeSessionStats } from './claude-code-session-types.js';

/** The counts of a reader that has read nothing yet. */
export function emptyClaudeCodeStats(): ClaudeCodeSessionStats {
  return {
    lines: 0,
    malformedLines: 0,
    skippedLines: 0,
    skippedByKind: {},
    entries: 0,
    messages: 0,
    mergedLines: 0,
    duplicateLines: 0,
    droppedBlocks: 0,
  };
}
