/**
 * agent-harness: an embeddable, headless agent runtime over the Anthropic Messages API.
 * This entry point is runtime-neutral (no Node built-ins); filesystem parts live in
 * `agent-harness/node`, test helpers in `agent-harness/testing`.
 * @packageDocumentation
 */

// Agent
export { createAgent } from './agent/create-agent.js';
export { Agent, type ApprovalDecision } from './agent/agent.js';
export type { RunOptions } from './agent/run-options.js';
export type { CompactOptions } from './agent/compact-options.js';
export type { CloseOptions } from './agent/close-options.js';
export type { CompactionResult } from './loop/compact-history.js';
export { AgentRun } from './agent/agent-run.js';
export type { AgentOptions } from './runtime/agent-options.js';
export { SNAPSHOT_SCHEMA_VERSION, SUPPORTED_SNAPSHOT_VERSIONS, type AgentSnapshot } from './runtime/snapshot.js';
export type { SnapshotKey, SnapshotKeys } from './runtime/snapshot-signature.js';
export type { ClaimApprovalArgs, VerifyPlanOnCompletionOptions } from './runtime/agent-options.js';
export type { StreamRetryBackoff } from './types/stream-retry-backoff.js';

// Subagents
export { BUILTIN_AGENTS, type AgentDefinition } from './subagents/agent-definition.js';
export { verifyPlan, type VerifyPlanOptions } from './agent/verify-plan.js';
export { stricterMode, subagentMode } from './permissions/stricter-mode.js';

// Telemetry
export type { TracerLike, SpanLike, SpanOptionsLike, SpanAttributeValue } from './telemetry/index.js';

// Events and results
export type {
  EventBase,
  AgentEvent,
  AgentEventType,
  AgentEventOf,
  RunStartEvent,
  TurnStartEvent,
  TextDeltaEvent,
  ThinkingDeltaEvent,
  StreamRetryEvent,
  ToolCallEvent,
  ToolResultEvent,
  PermissionRequestEvent,
  PermissionDecisionEvent,
  PermissionUpdateEvent,
  ModeChangeEvent,
  PlanApprovalRequestEvent,
  PlanApprovedEvent,
  PlanRejectedEvent,
  UserQuestionEvent,
  UserQuestion,
  TodoUpdateEvent,
  TurnEndEvent,
  ContextUsageEvent,
  ToolResultsClearedEvent,
  CompactionStartEvent,
  CompactionEndEvent,
  ErrorEvent,
  WarningEvent,
  McpServerStatusEvent,
  SubagentStartEvent,
  SubagentEndEvent,
  BackgroundTaskEndEvent,
  PlanVerificationEvent,
  RunEndEvent,
} from './events/agent-event.js';
export type { RunResult, RunStatus, SubagentRunSummary, BackgroundTaskInfo, PlanVerification, PlanStepFinding } from './events/run-result.js';

// Models
export {
  isServerToolDefinition,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
  type ModelCapabilities,
  type StopReason,
  type StopDetails,
  type ToolDefinition,
  type ServerToolDefinition,
  type RequestTool,
  type ToolSearchSupport,
  type TokenCount,
} from './model/model.js';
export type {
  Message,
  UserMessage,
  AssistantMessage,
  ContentBlock,
  TextBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
  ToolUseBlock,
  ToolResultBlock,
  ImageBlock,
  ToolReferenceBlock,
  ToolResultContentBlock,
  ServerToolUseBlock,
  ToolSearchToolResultBlock,
  UnknownBlock,
} from './model/messages.js';
export { type Usage } from './model/usage.js';
export {
  anthropicModel,
  CONTEXT_MANAGEMENT_BETA,
  type AnthropicModelOptions,
  type AnthropicThinkingConfig,
  type AnthropicContextManagement,
  type AnthropicEffort,
  type AnthropicPromptCaching,
} from './model/anthropic/index.js';
export { INCOMPLETE_TOOL_INPUT_KEY, isIncompleteToolInput, type IncompleteToolInput } from './model/incomplete-tool-input.js';
export { DEFAULT_PRICES, estimateCost, type ModelPrice } from './model/pricing.js';

// Tools
export { defineTool, type DefineToolOptions } from './tools/define-tool.js';
export { toolOutput } from './tools/tool-output.js';
export { suspendCall, isToolSuspension } from './tools/types.js';
export { unifiedDiff, type UnifiedDiffOptions } from './tools/unified-diff.js';
export { revealHiddenCharacters } from './tools/reveal-hidden-characters.js';
export { deferTool } from './tools/defer-tool.js';
export { serverTool, isServerTool, type ServerTool } from './tools/server-tool.js';
export type { InputSchema, InferInput, JsonSchemaObject, Zod3Schema, Zod3WithJsonSchema, Zod4Schema } from './tools/input-schema.js';
export type {
  Tool,
  ToolKind,
  ToolOutput,
  ToolReturn,
  ToolExecuteArgs,
  ToolResumeArgs,
  ToolRunContext,
  ToolSuspension,
  ToolCheckArgs,
  ToolAgentContext,
  ToolStateStore,
  ToolRuleTarget,
  ReadTargets,
  WriteTargets,
  ToolDisplay,
  ToolAnnotations,
  RestoreFileArgs,
} from './tools/types.js';
export type { RewindFilesOptions, RewindFilesResult, RewoundFile, SkippedFile } from './runtime/rewind-files.js';
export {
  recordFileCheckpoint,
  listFileCheckpoints,
  DEFAULT_CHECKPOINT_MAX_BYTES,
  DEFAULT_CHECKPOINT_MAX_FILE_BYTES,
  type FileCheckpoint,
  type FileCheckpointLimits,
} from './tools/file-checkpoints.js';

// Tools from outside: MCP servers, skills, tool search
export {
  mcpToolName,
  MCP_TOOL_PREFIX,
  sharedMcpServer,
  type SharedMcpServer,
  type SharedMcpServerOptions,
  type McpServerConfig,
  type McpServerConfigBase,
  type McpHttpServerConfig,
  type McpSdkServerConfig,
  type McpStdioServerConfig,
  type McpTransportServerConfig,
  type McpTransportLike,
  type McpServerLike,
  type McpReconnectOptions,
  type McpServerStatus,
  type McpServerState,
} from './mcp/index.js';
export { defineSkill, SKILL_TOOL_NAME, type Skill, type DefineSkillOptions } from './skills/index.js';
export { TOOL_SEARCH_TOOL_NAME, type ToolSearchMode, type ToolSearchVariant } from './tool-search/index.js';

// Permissions
export {
  PERMISSION_MODES,
  type PermissionMode,
  type PermissionRules,
  type PermissionUpdate,
  type PermissionUpdateDestination,
  type PermissionRuleValue,
  type PermissionRuleInput,
  type PermissionReason,
  type PermissionResult,
  type PermissionDecision,
  type CanUseTool,
  type CanUseToolContext,
  type ToolPermissionCheck,
  type AutoModeOptions,
} from './types/permission.js';
export type { PendingApproval } from './types/pending-approval.js';
export type { McpToolRecord } from './types/mcp-tool-record.js';

export {
  decidePermission,
  type DecidePermissionArgs,
  type PermissionOutcome,
  type PermissionEventDraft,
} from './permissions/index.js';
export {
  createRuleSet,
  parseRule,
  formatRule,
  suggestPermissionUpdates,
  describePermissionUpdate,
  isReadOnlyCall,
  readRuleMatcher,
  modeReminder,
  DEFAULT_PLAN_MODE_INSTRUCTIONS,
  DEFAULT_PLAN_MODE_DENY_MESSAGE,
  type RuleSet,
  type RuleMatchOptions,
  type RuleMatchTool,
  type RuleBehavior,
  type ParsedRule,
  type SuggestPermissionUpdatesOptions,
  type DescribePermissionUpdateOptions,
  type ModeReminderOptions,
} from './permissions/index.js';

// Hooks
export {
  HOOK_EVENT_NAMES,
  runHooks,
  DEFAULT_HOOK_TIMEOUT_MS,
  validateHooksConfig,
  composePreToolUse,
  composePermissionRequest,
  type ComposedPreToolUse,
  type ComposedPermissionRequest,
  type RunHooksOptions,
  type RunHooksResult,
} from './hooks/index.js';
export type * from './hooks/types.js';

export type { CompactionTrigger } from './types/context-usage.js';

// Sessions
export type { SessionStore, SessionStoreWarning, SessionLoadOptions } from './session/session-store.js';
export type { RunEndError } from './state/run-end-error.js';
export type {
  SessionEntry,
  EntryBase,
  MessageEntry,
  ModeChangeEntry,
  TodoUpdateEntry,
  PlanSnapshotEntry,
  PlanReferenceEntry,
  SessionMetaEntry,
  CompactBoundaryEntry,
  RunStartEntry,
  RunEndEntry,
  ToolResultEntry,
  PermissionDecisionEntry,
  ApprovalPendingEntry,
  ApprovalResolvedEntry,
  RulesAddedEntry,
  RulesChangedEntry,
  ToolStateEntry,
  CallAllowedEntry,
  CallSuspendedEntry,
  ReminderEntry,
  PrefixEntry,
  CheckpointEntry,
  CompactionRecord,
  SpillEntry,
  ResultsClearedEntry,
  CompactionPauseEntry,
  AnswerWithheldEntry,
  ContextResetEntry,
  CallResetEntry,
  DirectoriesChangedEntry,
  EntryDraft,
} from './state/entries.js';
export { ENTRY_SCHEMA_VERSION, SUPPORTED_ENTRY_VERSIONS } from './state/entries.js';
export { memorySessionStore, type MemorySessionStoreOptions } from './session/memory-session-store.js';
export { MAX_SESSION_ID_BYTES } from './session/assert-session-id.js';
export type {
  SessionAppendOptions,
  SessionLease,
  SessionLeases,
  SessionLeaseAcquireOptions,
  SessionLeaseRenewOptions,
  PendingSession,
} from './session/session-store.js';
export {
  foldPendingApprovals,
  pendingApprovalsIn,
  isCurrentPendingApprovals,
  PENDING_APPROVALS_RULE,
  type PendingApprovalsState,
  type PendingCall,
} from './session/pending-approvals.js';
export { compareSessionIds } from './session/compare-session-ids.js';
export {
  applyEntry,
  foldEntries,
  createSessionState,
  INTERRUPTED_BEFORE_FINISHING,
  NESTED_INTERRUPTED,
  type FoldEntriesOptions,
  type SessionState,
  type RequestPrefix,
  type NestedRun,
  type SpilledToolOutput,
} from './state/index.js';
export { forkSession, type ForkSessionOptions } from './session/fork-session.js';
export type { ForkOptions } from './session/fork-state.js';
export type { OpenBatch, BatchCall, BatchCallState, HostAnswer } from './state/index.js';

// Plans
export type { PlanStore, PlanWriteOptions } from './plan/plan-store.js';
export { memoryPlanStore, type MemoryPlanStoreOptions } from './plan/memory-plan-store.js';
export { planFileName, assertPlanName, planNameProblem, MAX_PLAN_NAME_BYTES, type PlanFileNameOptions } from './plan/plan-name.js';
export { generatePlanSlug, type RandomSource } from './plan/generate-plan-slug.js';
export { allocatePlanSlug, PLAN_SLUG_ATTEMPTS, type AllocatePlanSlugOptions } from './plan/allocate-plan-slug.js';
export { recoverPlan, PLAN_SOURCES, type RecoverPlanOptions, type RecoveredPlan, type PlanSource } from './plan/recover-plan.js';
export {
  copyPlanForResume,
  copyPlanForFork,
  type CopyPlanForResumeOptions,
  type CopyPlanForResumeResult,
  type CopyPlanForForkOptions,
  type CopyPlanForForkResult,
} from './plan/copy-plan.js';
export type { SessionEntrySource } from './plan/session-entry-source.js';
export { PlanSchema, type StructuredPlan, type PlanStep } from './plan/plan-schema.js';
export {
  extractJson,
  type ExtractJsonResult,
  type ExtractJsonSuccess,
  type ExtractJsonFailure,
  type ExtractJsonOptions,
  type ExtractJsonFailureReason,
  type JsonUnwrap,
} from './plan/extract-json.js';
export type { JsonCandidateStrategy } from './plan/json-candidates.js';
export type { ValueSchema, InferSchemaOutput, StandardSchemaLike } from './plan/value-schema.js';
export { createPartialJsonParser, type PartialJsonParser, type PartialJsonParserOptions, type DeepPartial } from './plan/partial-json-parser.js';
export { formatPlanAsMarkdown, type FormatPlanAsMarkdownOptions } from './plan/format-plan-as-markdown.js';
export {
  createPlanPhase,
  planPhaseDenialMessage,
  DEFAULT_READ_ONLY_TOOL_NAMES,
  type PlanPhase,
  type PlanPhaseOptions,
  type PlanPhaseCall,
  type PlanPhaseToolInfo,
} from './plan/plan-phase.js';
export { buildPlanRequestPrompt, buildPlanRetryPrompt, type BuildPlanRequestPromptOptions } from './plan/plan-request-prompt.js';
export { requestPlan, type RequestPlanOptions, type RequestedPlan, type PlanRequestAgent } from './plan/request-plan.js';

// Claude Code interop (reading its session files)
// (From its files, not its index: the index also carries the normalizer for agent-harness/node,
// which the core loads only when a reader is first iterated.)
export {
  readClaudeCodeSession,
  type ReadClaudeCodeSessionOptions,
  type ClaudeCodeSessionSource,
  type ClaudeCodeSessionReader,
} from './interop/claude-code/read-claude-code-session.js';
export type {
  ClaudeCodeSessionStats,
  ClaudeCodeSessionWarning,
  ClaudeCodeSubagent,
  ClaudeCodeFileBackup,
  ReadClaudeCodeFileBackup,
} from './interop/claude-code/claude-code-session-types.js';

// Todos
export { MAX_TODOS, MAX_TODO_TEXT_CHARS, type Todo, type TodoStatus } from './types/todo.js';
export { TodoSchema, TodoListSchema } from './todos/todo-schema.js';
export { validateTodos, type TodoValidation } from './todos/validate-todos.js';
export { diffTodos, type TodoChanges, type TodoStatusChange } from './todos/diff-todos.js';
export { planToTodos, type PlanToTodosOptions } from './todos/plan-to-todos.js';
export { recoverTodos, type RecoverTodosOptions } from './todos/recover-todos.js';

// Context
export {
  estimateTextTokens,
  estimateBlockTokens,
  estimateMessageTokens,
  estimatePrefixTokens,
  IMAGE_TOKEN_ESTIMATE,
  DEFAULT_CONTEXT_WINDOWS,
  contextWindowFor,
  contextUsage,
  promptTokens,
  createContextTracker,
  DEFAULT_CONTEXT_WINDOW,
  memorySpillStore,
  spillToolResult,
  spillHandle,
  READ_TOOL_OUTPUT_TOOL_NAME,
  readToolOutputTool,
  clearStaleToolResults,
  describeClearedCall,
  CLEARED_TOOL_RESULT_PREFIX,
  compactionThreshold,
  shouldCompact,
  promptTooLong,
  isSafeCut,
  findCompactionCut,
  buildHandoffSummaryPrompt,
  extractHandoffSummary,
  HANDOFF_SUMMARY_SECTIONS,
  buildSummaryRequest,
  sessionStateBlocks,
  SESSION_STATE_HEADING,
  LOADED_SKILLS_HEADING,
  buildCompactedHistory,
  SUMMARY_HEADING,
  LATEST_PROMPT_HEADING,
  DEFAULT_CONTINUATION,
  memoryTool,
  MEMORY_TOOL_TYPE,
  MEMORY_TOOL_NAME,
  memoryMemoryStore,
  parseMemoryPath,
  MEMORY_ROOT,
  MAX_MEMORY_PATH_BYTES,
  MAX_MEMORY_NAME_BYTES,
  findInstructionImports,
  type ContextWindowForOptions,
  type ContextUsage,
  type ContextUsageSource,
  type ContextOptions,
  type SpillOptions,
  type ClearingOptions,
  type CompactionOptions,
  type ContextTracker,
  type ContextTrackerOptions,
  type ContextRequest,
  type SpillStore,
  type SpilledOutput,
  type MemorySpillStoreOptions,
  type SpillToolResultOptions,
  type SpillResult,
  type ReadToolOutputToolOptions,
  type ClearStaleToolResultsOptions,
  type ClearStaleToolResultsResult,
  type ClearedToolResult,
  type ClearedCall,
  type CompactionThresholdOptions,
  type PromptTooLong,
  type FindCompactionCutOptions,
  type HandoffSummaryPromptOptions,
  type BuildSummaryRequestOptions,
  type CompactionState,
  type BuildCompactedHistoryOptions,
  type CompactedHistory,
  type MemoryToolOptions,
  type MemoryCommand,
  type MemoryStore,
  type MemoryEntryInfo,
  type MemoryEntryKind,
  type MemoryPath,
  type InstructionImport,
} from './context/index.js';

// Errors
export {
  AgentHarnessError,
  ConfigurationError,
  ToolInputError,
  ToolExecutionError,
  ModelError,
  RunInProgressError,
  UnsupportedSchemaVersionError,
  ApprovalNotFoundError,
  type ApprovalNotFoundErrorOptions,
  ScriptMismatchError,
  PromptBlockedError,
  SessionWriteError,
  SessionNotFoundError,
  HookError,
  PlanNameCollisionError,
  PlanStoreIfAbsentError,
  type PlanStoreIfAbsentErrorOptions,
  PlanExtractionError,
  PlanVerificationError,
  SessionLockedError,
  SessionConflictError,
  SnapshotInvalidError,
  ApprovalClaimedError,
  StructuredOutputError,
  type StructuredOutputErrorOptions,
  type SessionConflictErrorOptions,
  UnsafeCompactionCutError,
  CompactionError,
  type CompactionErrorOptions,
  MemoryAccessError,
  LeaseLostError,
  SessionStoreCorruptError,
  type SessionStoreCorruptErrorOptions,
  type LeaseLostErrorLease,
  type LeaseLostErrorOptions,
  McpConnectionError,
  McpToolCallError,
  McpProtocolError,
  SkillFormatError,
  type McpConnectionErrorOptions,
  type McpToolCallErrorOptions,
  type McpProtocolErrorOptions,
  type SkillFormatErrorOptions,
  TracerError,
  type TracerErrorOptions,
  type AgentHarnessErrorOptions,
  type ModelErrorOptions,
  type HookErrorOptions,
  type PlanExtractionErrorOptions,
  type PlanVerificationErrorOptions,
  type PlanVerificationFailure,
  type SessionLockHolder,
  type SessionLockedErrorOptions,
} from './errors/index.js';
