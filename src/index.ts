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
  type AgentHarnessErrorOptions,
  type ModelErrorOptions,
} from './errors/index.js';
