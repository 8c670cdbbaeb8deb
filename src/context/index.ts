/**
 * Context management building blocks (DESIGN §9): token accounting, spilling long tool results,
 * clearing stale ones, compaction pieces, the memory tool and instruction imports. Pure functions
 * and small modules; the loop wires them in.
 */

// Options
export type { ContextOptions, SpillOptions, ClearingOptions, CompactionOptions } from './context-options.js';

// Accounting
export { estimateTextTokens, estimateBlockTokens, estimateMessageTokens, estimatePrefixTokens, IMAGE_TOKEN_ESTIMATE } from './accounting/estimate-tokens.js';
export { countAsciiCharacters } from './accounting/count-ascii-characters.js';
export { DEFAULT_CONTEXT_WINDOWS, contextWindowFor, type ContextWindowForOptions } from './accounting/context-windows.js';
export { contextUsage, promptTokens, type ContextUsage, type ContextUsageSource } from './accounting/context-usage.js';
export {
  createContextTracker,
  DEFAULT_CONTEXT_WINDOW,
  type ContextTracker,
  type ContextTrackerOptions,
  type ContextRequest,
} from './accounting/context-tracker.js';

// Spill
export { memorySpillStore, type SpillStore, type SpilledOutput, type MemorySpillStoreOptions } from './spill/spill-store.js';
export { spillToolResult, spillHandle, READ_TOOL_OUTPUT_TOOL_NAME, type SpillToolResultOptions, type SpillResult } from './spill/spill-tool-result.js';
export { readToolOutputTool, type ReadToolOutputToolOptions } from './spill/read-tool-output-tool.js';
export { sessionReadToolOutputTool, isSessionReadToolOutput } from './spill/session-read-tool-output.js';

// Clearing
export {
  clearStaleToolResults,
  describeClearedCall,
  toolResultText,
  CLEARED_TOOL_RESULT_PREFIX,
  type ClearStaleToolResultsOptions,
  type ClearStaleToolResultsResult,
  type ClearedToolResult,
  type ClearedCall,
} from './clearing/clear-stale-tool-results.js';

// Compaction
export { compactionThreshold, shouldCompact, type CompactionThresholdOptions } from './compaction/compaction-threshold.js';
export { promptTooLong, type PromptTooLong } from './compaction/prompt-too-long.js';
export { isSafeCut, findCompactionCut, type FindCompactionCutOptions } from './compaction/find-compaction-cut.js';
export {
  buildHandoffSummaryPrompt,
  extractHandoffSummary,
  unclosedHandoffSummary,
  HANDOFF_SUMMARY_SECTIONS,
  type HandoffSummaryPromptOptions,
} from './compaction/handoff-summary-prompt.js';
export { buildSummaryRequest, type BuildSummaryRequestOptions } from './compaction/build-summary-request.js';
export { sessionStateBlocks, isSessionStateText, SESSION_STATE_HEADING, LOADED_SKILLS_HEADING, type CompactionState } from './compaction/session-state-blocks.js';
export {
  buildCompactedHistory,
  conversationInOpening,
  restatedStateInOpening,
  SUMMARY_HEADING,
  LATEST_PROMPT_HEADING,
  DEFAULT_CONTINUATION,
  type BuildCompactedHistoryOptions,
  type CompactedHistory,
} from './compaction/build-compacted-history.js';

// Memory
export { memoryTool, MEMORY_TOOL_TYPE, MEMORY_TOOL_NAME, type MemoryToolOptions } from './memory/memory-tool.js';
export type { MemoryCommand } from './memory/memory-commands.js';
export type { MemoryStore, MemoryEntryInfo, MemoryEntryKind } from './memory/memory-store.js';
export { memoryMemoryStore } from './memory/memory-memory-store.js';
export { parseMemoryPath, MEMORY_ROOT, MAX_MEMORY_PATH_BYTES, MAX_MEMORY_NAME_BYTES, type MemoryPath } from './memory/memory-path.js';

// Instructions
export { findInstructionImports, type InstructionImport } from './instructions/find-instruction-imports.js';
