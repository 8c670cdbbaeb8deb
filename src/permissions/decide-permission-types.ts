import type { ErrorEvent, PermissionRequestEvent } from '../events/agent-event.js';
import type { HooksConfig } from '../hooks/types.js';
import type { ToolDisplay } from '../types/tool-display.js';
import type { Tool, ToolAgentContext } from '../tools/types.js';
import type { RuleSet } from './rule-set.js';
import type {
  AutoModeOptions,
  CanUseTool,
  PermissionDecision,
  PermissionMode,
  PermissionUpdate,
} from '../types/permission.js';

/**
 * An event the pipeline emits, without `sessionId` (the loop fills it in). `agentId` is set when
 * the call comes from a subagent.
 */
export type PermissionEventDraft = Omit<PermissionRequestEvent, 'sessionId'> | Omit<ErrorEvent, 'sessionId'>;

/** The argument of {@link decidePermission}. */
export interface DecidePermissionArgs {
  /** The tool being called. */
  tool: Tool;
  /** The id of the `tool_use` block. */
  toolUseId: string;
  /** The input exactly as the model sent it; validated by the first step. */
  rawInput: unknown;
  /** The session's permission mode now. */
  mode: PermissionMode;
  /**
   * The session's rules.
   * @default no rules
   */
  rules?: RuleSet;
  /**
   * The agent's hooks (`PreToolUse` and `PermissionRequest` run here).
   * @default no hooks
   */
  hooks?: HooksConfig;
  /**
   * The host's callback for calls that must be asked.
   * @default undefined (asked calls are deferred)
   */
  canUseTool?: CanUseTool;
  /**
   * The classifier of `auto` mode.
   * @default undefined (`auto` asks like `default`)
   */
  autoMode?: AutoModeOptions;
  /** Aborted on interrupt: releases a `canUseTool` or classifier that never returns. */
  signal: AbortSignal;
  /**
   * Set when nobody can wait for the host's answer (a background subagent, and every subagent it
   * starts): a call that would be parked as a pending approval (`defer`, from `canUseTool`, its
   * absence or a `PreToolUse` hook) is denied instead, with this message for the model.
   * @default undefined (such a call is parked)
   */
  cannotWait?: string;
  /**
   * Set when the call comes from a subagent.
   * @default agent.agentId
   */
  agentId?: string;
  /**
   * The workspace root; absolute paths inside it are matched against rules relative to it.
   * @default undefined (paths are matched as given)
   */
  cwd?: string;
  /** The agent as tools see it, handed to `validateInput` and `checkPermissions`. */
  agent: ToolAgentContext;
  /** Receives `permission-request` (before `canUseTool`) and non-fatal `error` events. */
  emit: (event: PermissionEventDraft) => void;
  /**
   * The message a non-read-only call gets in plan mode.
   * @default DEFAULT_PLAN_MODE_DENY_MESSAGE
   */
  planModeDenyMessage?: string;
}

/** What {@link decidePermission} returns. */
export interface PermissionOutcome {
  /** The decision, ready to emit as `permission-decision`. */
  decision: PermissionDecision;
  /**
   * The validated input after hook rewrites and host edits: the input an `allow` runs with, or
   * the one a `defer` parks. `undefined` when validation failed.
   */
  input?: unknown;
  /** For `defer`: the "always allow" suggestions, for the pending approval. */
  suggestions?: PermissionUpdate[];
  /** For `defer`: the path outside the workspace that caused the question. */
  blockedPath?: string;
  /**
   * For `allow`: the input before the host (`canUseTool` or a `PermissionRequest` hook) edited
   * it, when it did — the model is told its input was changed.
   */
  editedFrom?: unknown;
  /** For `allow`: the host asked to continue in a fresh context (a plan approval's `clearContext`). */
  clearContext?: boolean;
  /** For `defer`: what the approval card shows, from the tool's `display`. */
  display?: ToolDisplay;
}
