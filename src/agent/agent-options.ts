import type { Model } from '../model/model.js';
import type { AutoModeOptions, CanUseTool, PermissionMode, PermissionRules } from '../permissions/types.js';
import type { HooksConfig } from '../hooks/types.js';
import type { PlanStore } from '../plan/plan-store.js';
import type { Tool } from '../tools/types.js';
import type { ModelPrice } from '../loop/pricing.js';
import type { AgentSnapshot } from './snapshot.js';
import type { SessionStore } from '../session/session-store.js';

/** Options of `createAgent`. */
export interface AgentOptions {
  /** The language model, e.g. `anthropicModel({ model: 'claude-sonnet-4-6' })` or `scriptedModel([...])`. */
  model: Model;
  /** The system prompt. It never changes during a session (the request prefix stays cacheable). */
  system?: string;
  /** The host's tools. Their order is the order sent to the model, after the built-in tools. */
  tools?: Tool[];
  /**
   * The session-level permission mode.
   * @default 'default'
   */
  permissionMode?: PermissionMode;
  /**
   * Required to start in, or switch to, `bypassPermissions`.
   * @default false
   */
  allowDangerouslySkipPermissions?: boolean;
  /** Decides calls the pipeline could not. Absent: such calls are deferred as pending approvals. */
  canUseTool?: CanUseTool;
  /** Permission rules for the session; more can be added at run time. */
  rules?: PermissionRules;
  /** The classifier for `auto` mode. */
  autoMode?: AutoModeOptions;
  /** Lifecycle hooks. */
  hooks?: HooksConfig;
  /**
   * Workspace root, used to match path rules (`Edit(src/**)`) against relative paths.
   * @default undefined (paths are matched as given)
   */
  cwd?: string;
  /**
   * The most model calls one run may make.
   * @default 30
   */
  maxTurns?: number;
  /** Stop the run once its estimated cost reaches this many US dollars. */
  maxBudgetUsd?: number;
  /** Prices per million tokens by model id (prefix match), merged over the built-in table. */
  prices?: Record<string, ModelPrice>;
  /** The session id; generated when absent. */
  sessionId?: string;
  /** Marks this agent as a subagent; `EnterPlanMode` is refused in subagents. */
  agentId?: string;
  /**
   * Continue a session: a snapshot (`agent.snapshot()`, possibly after `JSON.parse`), or a session
   * id to rebuild from `store`.
   */
  resume?: AgentSnapshot | string;
  /**
   * Where the transcript is written as the session goes (an entry is stored before the event
   * announcing it is emitted). `memorySessionStore()` or `fileSessionStore({ dir })` from
   * `agent-harness/node`.
   * @default undefined (nothing is written)
   */
  store?: SessionStore;
  /**
   * Include the built-in `TodoWrite` tool.
   * @default true
   */
  todoWrite?: boolean;
  /**
   * Include the built-in `ExitPlanMode` tool.
   * @default true
   */
  exitPlanMode?: boolean;
  /**
   * Include the opt-in `EnterPlanMode` tool (the model may ask to enter plan mode; needs approval).
   * @default false
   */
  enterPlanMode?: boolean;
  /** Replaces the default (domain-neutral) plan-mode instructions the model receives on entering plan mode. */
  planModeInstructions?: string;
  /** Where approved plans are written. @default memoryPlanStore() */
  planStore?: PlanStore;
  /**
   * Tool results longer than this many characters are truncated with a note.
   * @default 100_000
   */
  maxToolResultChars?: number;
  /**
   * How many concurrency-safe tool calls run at once.
   * @default 10
   */
  maxToolConcurrency?: number;
  /**
   * How many times a turn is retried after a retryable failure in the middle of a stream
   * (e.g. `overloaded_error`). HTTP-level retries are the model adapter's.
   * @default 2
   */
  maxStreamRetries?: number;
}
