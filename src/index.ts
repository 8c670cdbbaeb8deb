/**
 * agent-harness: an embeddable, headless agent runtime over the Anthropic Messages API.
 * This entry point is runtime-neutral (no Node built-ins); filesystem parts live in
 * `agent-harness/node`, test helpers in `agent-harness/testing`.
 * @packageDocumentation
 */

// Agent
export { createAgent } from './agent/create-agent.js';
export { Agent, type RunOptions, type ApprovalDecision } from './agent/agent.js';
export { AgentRun } from './agent/agent-run.js';
export type { AgentOptions } from './agent/agent-options.js';
export { SNAPSHOT_SCHEMA_VERSION, SUPPORTED_SNAPSHOT_VERSIONS, type AgentSnapshot } from './agent/snapshot.js';

// Events and results
export type {
  AgentEvent,
  AgentEventType,
  AgentEventOf,
  RunStartEvent,
  TurnStartEvent,
  TextDeltaEvent,
  ThinkingDeltaEvent,
  ToolCallEvent,
  ToolResultEvent,
  PermissionRequestEvent,
  PermissionDecisionEvent,
  ModeChangeEvent,
  PlanApprovalRequestEvent,
  PlanApprovedEvent,
  TodoUpdateEvent,
  TurnEndEvent,
  ErrorEvent,
  RunEndEvent,
} from './events/agent-event.js';
export type { RunResult, RunStatus } from './events/run-result.js';

// Models
export type { Model, ModelRequest, ModelResponse, ModelStreamEvent, StopReason, ToolDefinition } from './model/model.js';
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
  UnknownBlock,
} from './model/messages.js';
export { type Usage } from './model/usage.js';
export { anthropicModel, type AnthropicModelOptions, type AnthropicThinkingConfig } from './model/anthropic/index.js';
export { INCOMPLETE_TOOL_INPUT_KEY, isIncompleteToolInput, type IncompleteToolInput } from './model/incomplete-tool-input.js';
export { DEFAULT_PRICES, estimateCost, type ModelPrice } from './loop/pricing.js';

// Tools
export { defineTool, type DefineToolOptions } from './tools/define-tool.js';
export { toolOutput } from './tools/tool-output.js';
export type { InputSchema, InferInput, JsonSchemaObject, Zod3Schema, Zod4Schema } from './tools/input-schema.js';
export type {
  Tool,
  ToolKind,
  ToolOutput,
  ToolReturn,
  ToolExecuteArgs,
  ToolCheckArgs,
  ToolAgentContext,
  ToolStateStore,
  ToolRuleTarget,
} from './tools/types.js';

// Permissions
export {
  PERMISSION_MODES,
  type PermissionMode,
  type PermissionRules,
  type PermissionUpdate,
  type PermissionUpdateDestination,
  type PermissionReason,
  type PermissionResult,
  type PermissionDecision,
  type CanUseTool,
  type CanUseToolContext,
  type ToolPermissionCheck,
  type AutoModeOptions,
} from './permissions/types.js';
export type { PendingApproval } from './permissions/pending-approval.js';

export {
  decidePermission,
  type DecidePermissionArgs,
  type PermissionOutcome,
  type PermissionEventDraft,
} from './permissions/index.js';
export { createRuleSet, parseRule, formatRule, suggestPermissionUpdates, isReadOnlyCall, modeReminder, DEFAULT_PLAN_MODE_INSTRUCTIONS, DEFAULT_PLAN_MODE_DENY_MESSAGE, type RuleSet, type RuleMatchOptions, type ParsedRule } from './permissions/index.js';

// Hooks
export {
  HOOK_EVENT_NAMES,
  runHooks,
  DEFAULT_HOOK_TIMEOUT_MS,
  validateHooksConfig,
  composePreToolUse,
  composePermissionRequest,
  type RunHooksOptions,
  type RunHooksResult,
} from './hooks/index.js';
export type * from './hooks/types.js';

// Sessions
export type { SessionStore, SessionStoreWarning, SessionLoadOptions } from './session/session-store.js';
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
  ToolStateEntry,
} from './session/entries.js';
export { ENTRY_SCHEMA_VERSION, SUPPORTED_ENTRY_VERSIONS } from './session/entries.js';
export { memorySessionStore } from './session/memory-session-store.js';
export { entriesToSnapshot } from './session/entries-to-snapshot.js';
export { forkSession, type ForkSessionOptions } from './session/fork-session.js';
export type { ForkOptions } from './agent/fork-snapshot.js';

// Todos
export type { Todo, TodoStatus } from './todos/types.js';

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
  ScriptMismatchError,
  PromptBlockedError,
  SessionWriteError,
  SessionNotFoundError,
  HookError,
  type AgentHarnessErrorOptions,
  type ModelErrorOptions,
} from './errors/index.js';
