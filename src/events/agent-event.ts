import type { AgentHarnessError } from '../errors/agent-harness-error.js';
import type { ModelError } from '../errors/model-error.js';
import type { AssistantMessage, ContentBlock, ToolUseBlock } from '../model/messages.js';
import type { Usage } from '../model/usage.js';
import type {
  PermissionDecision,
  PermissionMode,
  PermissionReason,
  PermissionUpdate,
} from '../types/permission.js';
import type { Todo } from '../types/todo.js';
import type { TodoChanges } from '../types/todo.js';
import type { ToolDisplay } from '../types/tool-display.js';
import type { ToolAnnotations } from '../types/tool-annotations.js';
import type { McpServerState } from '../types/mcp-server-state.js';
import type { CompactionTrigger, ContextUsage } from '../types/context-usage.js';
import type { BackgroundTaskInfo, PlanVerification, RunResult, SubagentRunSummary } from './run-result.js';

/** Fields every event carries. */
export interface EventBase {
  /** The session the event belongs to. */
  sessionId: string;
  /** Set when the event comes from a subagent. */
  agentId?: string;
  /** For a subagent's event: the parent's `Agent` call that started it (render it nested under that call). */
  parentToolUseId?: string;
}

/** A run began. */
export interface RunStartEvent extends EventBase {
  type: 'run-start';
  runId: string;
  /** The prompt, or undefined when the run continues after approvals. */
  prompt: string | undefined;
}

/** A model turn began. */
export interface TurnStartEvent extends EventBase {
  type: 'turn-start';
  /** 1-based turn number within the run. */
  turn: number;
}

/**
 * Text streamed from the model. Concatenate the deltas of one agent (`agentId`) to show the
 * answer as it streams; on a `stream-retry` of that agent, drop what this turn streamed so far.
 */
export interface TextDeltaEvent extends EventBase {
  type: 'text-delta';
  text: string;
}

/** Thinking streamed from the model; like `text-delta`, void for this turn after a `stream-retry`. */
export interface ThinkingDeltaEvent extends EventBase {
  type: 'thinking-delta';
  thinking: string;
}

/**
 * A turn's model stream failed midway with a retryable error (an `overloaded_error` frame, a
 * dropped connection), and the turn starts over with the same request (`maxStreamRetries`).
 * What this turn streamed so far is void: discard the `text-delta` and `thinking-delta` events of
 * the same agent (same `agentId`) received since this turn's `turn-start` or its previous
 * `stream-retry`; the new attempt streams its answer from the beginning. Nothing of the failed
 * attempt enters the history, and no `tool-call` belongs to it (calls are announced once a turn's
 * answer is complete), so `turn-end` carries the new attempt's message only. A failure past the
 * last retry is not announced by this event: it ends the run with a fatal `error`.
 * @example
 * let shown = ''; // the main agent's text, all turns
 * let turnStart = 0; // where the current turn's text begins in `shown`
 * for await (const event of run) {
 *   if (event.agentId !== undefined) continue; // a subagent's events: keep them apart the same way
 *   if (event.type === 'turn-start') turnStart = shown.length;
 *   if (event.type === 'stream-retry') shown = shown.slice(0, turnStart);
 *   if (event.type === 'text-delta') shown += event.text;
 * }
 */
export interface StreamRetryEvent extends EventBase {
  type: 'stream-retry';
  /** The turn that starts over (as on its `turn-start`). */
  turn: number;
  /** Which retry of this turn this is: 1 for the first, at most `maxRetries`. */
  retry: number;
  /** How many retries a turn gets (`maxStreamRetries`). */
  maxRetries: number;
  /** Why the attempt failed: a retryable `ModelError` without an HTTP status (HTTP-level retries are the model adapter's). */
  error: ModelError;
  /** How long the turn waits before the new attempt, in milliseconds (`streamRetryBackoff`; 0 when it retries at once). */
  delayMs: number;
}

/** The model asked for a tool call (emitted once its input is complete). */
export interface ToolCallEvent extends EventBase {
  type: 'tool-call';
  toolUseId: string;
  toolName: string;
  input: unknown;
}

/** A tool call was answered (executed, denied, failed or interrupted). */
export interface ToolResultEvent extends EventBase {
  type: 'tool-result';
  toolUseId: string;
  toolName: string;
  /** The content sent back to the model. */
  content: string | ContentBlock[];
  isError: boolean;
  /** The tool's return value before serialization, when it executed. */
  output?: unknown;
  /** Execution time in milliseconds, when it executed. */
  durationMs?: number;
}

/** A host is being asked about a tool call; render an approval card from it. */
export interface PermissionRequestEvent extends EventBase {
  type: 'permission-request';
  toolUseId: string;
  toolName: string;
  /**
   * The call's input as the model wrote it: untrusted text that may hold bidi or control
   * characters. Render it through `revealHiddenCharacters` (the `display` fields already are).
   */
  input: unknown;
  reason: PermissionReason;
  suggestions: PermissionUpdate[];
  blockedPath?: string;
  /**
   * What the approval card shows, from the tool's `display` (a unified diff, a command); absent
   * when the tool has none. Its text fields (not `file.before`/`file.after`) show bidi, invisible
   * and control characters as `<U+XXXX>`: they often carry model text (Bash's `description`).
   */
  display?: ToolDisplay;
  /**
   * The tool's behaviour hints, e.g. an MCP tool's `destructiveHint` (show a stronger warning) or
   * `title`. Hints from the tool's author, not guarantees.
   */
  toolAnnotations?: ToolAnnotations;
}

/** The pipeline decided about a tool call. The stream of these is an audit log. */
export interface PermissionDecisionEvent extends EventBase, PermissionDecision {
  type: 'permission-decision';
}

/**
 * A permission update for the `host` destination was applied to the session: keep it beyond the
 * session (e.g. in the user's settings) and pass its rules back as `rules` next time.
 */
export interface PermissionUpdateEvent extends EventBase {
  type: 'permission-update';
  update: PermissionUpdate;
}

/** The permission mode changed. */
export interface ModeChangeEvent extends EventBase {
  type: 'mode-change';
  from: PermissionMode;
  to: PermissionMode;
  /** Who changed it: `host`, `plan-approved`, `enter-plan-mode`, `permission-update`, `resume`. */
  reason: string;
}

/** The model presented a plan with `ExitPlanMode`; render a plan card. */
export interface PlanApprovalRequestEvent extends EventBase {
  type: 'plan-approval-request';
  toolUseId: string;
  plan: string;
}

/** A plan was approved (the final text, after any host edit). */
export interface PlanApprovedEvent extends EventBase {
  type: 'plan-approved';
  toolUseId?: string;
  plan: string;
  /** The plan's file name in the plan store. */
  name?: string;
  /** The host edited the plan before approving it (what was saved is the edited plan). */
  edited?: boolean;
  /** The execution starts in a fresh context (the approval carried `clearContext`). */
  clearContext?: boolean;
}

/** The host rejected a plan presented with `ExitPlanMode`; the model stays in plan mode with the feedback. */
export interface PlanRejectedEvent extends EventBase {
  type: 'plan-rejected';
  toolUseId: string;
  /** What the host said (the denial's message), as the model reads it. */
  feedback: string;
}

/** One question of `AskUserQuestion`. */
export interface UserQuestion {
  /** The full question. */
  question: string;
  /** A short label for the question (a chip, a tab). */
  header: string;
  /** The choices (2–4); the user may also answer in free text. */
  options: Array<{ label: string; description: string }>;
  /** Several options may be chosen. */
  multiSelect: boolean;
}

/**
 * The model asks the user (`AskUserQuestion`): render the questions. Answer through `canUseTool`
 * (or `resolveApproval` when it waits) with `{ behavior: 'allow', updatedInput: { ...input,
 * answers: { [question]: label } } }`.
 */
export interface UserQuestionEvent extends EventBase {
  type: 'user-question';
  toolUseId: string;
  questions: UserQuestion[];
}

/** The todo list changed; carries the full new list. */
export interface TodoUpdateEvent extends EventBase {
  type: 'todo-update';
  /** The full new list. */
  todos: Todo[];
  /** The list before. */
  previous: Todo[];
  /** What changed: items added, removed, and status changes. */
  changes: TodoChanges;
}

/** A model turn ended. */
export interface TurnEndEvent extends EventBase {
  type: 'turn-end';
  turn: number;
  /** Usage of this turn's model call. */
  usage: Usage;
  stopReason: string | null;
  /** The assistant message of this turn (the one in the history, not a copy: do not mutate). */
  message: AssistantMessage;
  /** The tool calls of this turn, in order (empty when the turn has none). */
  toolCalls: ToolUseBlock[];
}

/**
 * How full the context is, once per turn (after the model answered) and after every clearing or
 * compaction: the figure a host draws a meter from. Also `agent.contextUsage`.
 */
export interface ContextUsageEvent extends EventBase {
  type: 'context-usage';
  /**
   * The run's turn it follows: the turn just answered; for a clearing or an automatic compaction
   * before the next request, the run's latest turn; for a reactive compaction, the turn it
   * happened in. 0 before a run's first turn and for `agent.compact()`.
   */
  turn: number;
  usage: ContextUsage;
}

/** Old tool results were replaced by stubs to save context. */
export interface ToolResultsClearedEvent extends EventBase {
  type: 'tool-results-cleared';
  /** The results cleared, oldest first: the call, its tool and how many characters its result held. */
  cleared: Array<{ toolUseId: string; toolName: string; chars: number }>;
  /** The context before, in tokens. */
  tokensBefore: number;
  /** The context after, in tokens (estimated). */
  tokensAfter: number;
}

/** A compaction began: the model is asked for a handoff summary. */
export interface CompactionStartEvent extends EventBase {
  type: 'compaction-start';
  trigger: CompactionTrigger;
  /** The context before, in tokens. */
  tokensBefore: number;
}

/** A compaction ended: the history was replaced (or, with `error`, left as it was). */
export interface CompactionEndEvent extends EventBase {
  type: 'compaction-end';
  trigger: CompactionTrigger;
  tokensBefore: number;
  /** The context after, in tokens (estimated, calibrated); equals `tokensBefore` when it failed. */
  tokensAfter: number;
  /** How many messages the summary replaced. */
  summarizedMessages: number;
  /** How many messages were kept verbatim. */
  keptMessages: number;
  /** What the summary call cost. */
  usage: Usage;
  /**
   * Set when no summary could be written because even the summary request was too long (a
   * reactive compaction's last resort): the oldest `summarizedMessages` were dropped instead, and
   * a `warning` event says so.
   */
  trimmed?: true;
  /** Set when the compaction failed; the history is unchanged. */
  error?: Error;
}

/**
 * Something failed. Fatal errors also end the run with status `error`. A mid-stream failure the
 * loop retries is announced by `stream-retry` instead.
 */
export interface ErrorEvent extends EventBase {
  type: 'error';
  error: AgentHarnessError | Error;
  /** True when the run stops because of it. */
  fatal: boolean;
}

/** Something was skipped or repaired without failing (e.g. a torn last line of a transcript after a crash). */
export interface WarningEvent extends EventBase {
  type: 'warning';
  /** A sentence saying what happened and what was done about it. */
  message: string;
  /**
   * Where it came from: loading the session from its store, context management (a compaction
   * that left the context past the automatic compaction threshold), the tool list (when the
   * agent is ready: the definitions sent with every request take more than a tenth of the
   * context window), or the model (a run completed on an answer cut off by `max_tokens`,
   * `model_context_window_exceeded` or `refusal`; media the API could not process or refused as
   * too large, replaced in the history by a note), or the hooks (a `Stop` hook asked to continue
   * after a refusal, which is not followed), or the prompt cache (at a run's start: the system
   * prompt or the tools sent in full differ from those the session's requests were sent with, so
   * the next request writes the whole history to the cache again; said once per change).
   */
  source: 'session-store' | 'compaction' | 'tools' | 'model' | 'hooks' | 'prompt-cache';
}

/**
 * An MCP server's state changed: connected, lost and reconnecting, failed, needs authorization,
 * closed, or its tools changed. Each server's state is also announced once when the agent is ready.
 */
export interface McpServerStatusEvent extends EventBase, McpServerState {
  type: 'mcp-server-status';
}

/**
 * A subagent started (the parent's `Agent` call `parentToolUseId`), or continues after waiting for
 * the host (`resumed`); its own events follow with its `agentId`, and its `subagent-end` always
 * follows. Emitted once it has its place under `maxSubagentConcurrency` (and, for a new subagent,
 * its `SubagentStart` hooks ran): a call interrupted while it waits for a place never starts and
 * emits neither. Starts and ends pair by `agentId`: a subagent that stops to wait for an approval
 * ends (`summary.status` `awaiting-approval`), and starts again, `resumed`, when the host's answer
 * continues it — on the same agent, or in another process from the snapshot or the store.
 * @example
 * // The subagents at work now (one waiting for an approval is not), by agentId.
 * const working = new Map<string, string>();
 * agent.on('subagent-start', (event) => working.set(event.agentId!, event.description));
 * agent.on('subagent-end', (event) => working.delete(event.agentId!));
 */
export interface SubagentStartEvent extends EventBase {
  type: 'subagent-start';
  /** The subagent type. */
  subagentType: string;
  /** The task's short description (a resumed subagent's is the one it started with). */
  description: string;
  /** Started with `run_in_background`: this is its task id. */
  taskId?: string;
  /**
   * Set when the subagent continues after the host answered an approval it waited on: it started
   * earlier (maybe in another process) and its previous `subagent-end` had `summary.status`
   * `awaiting-approval`. Its `SubagentStart` hooks do not run again.
   * @default undefined (a subagent starting on its task)
   */
  resumed?: boolean;
}

/**
 * A subagent's run ended (or stopped to wait for an approval: `summary.status`
 * `awaiting-approval`, and a `subagent-start` with `resumed` follows when it continues). Always
 * preceded by a `subagent-start` with the same `agentId`.
 */
export interface SubagentEndEvent extends EventBase {
  type: 'subagent-end';
  /** The subagent type. */
  subagentType: string;
  /** What its run did. */
  summary: SubagentRunSummary;
}

/**
 * A background subagent task ended; the model of the agent that started it is told in its next
 * turn. For a task a subagent started, the event carries that subagent's `agentId`.
 */
export interface BackgroundTaskEndEvent extends EventBase {
  type: 'background-task-end';
  /** The task. */
  task: BackgroundTaskInfo;
  /** Its final text (or what went wrong). */
  output: string;
}

/** The work was checked against the approved plan (`verifyPlanOnCompletion`). */
export interface PlanVerificationEvent extends EventBase {
  type: 'plan-verification';
  /** The plan's file name. */
  name: string;
  /** The verdict and the per-step findings. */
  verification: PlanVerification;
}

/** The run ended. */
export interface RunEndEvent extends EventBase {
  type: 'run-end';
  result: RunResult;
}

/**
 * Every event an agent emits, discriminated on `type`. Events carry the agent's own objects (a
 * call's `input`, a turn's `message`, a result's `messages`), not copies: treat them as read-only
 * and copy what you keep (a listener that edits `input` edits what the tool runs with).
 */
export type AgentEvent =
  | RunStartEvent
  | TurnStartEvent
  | TextDeltaEvent
  | ThinkingDeltaEvent
  | StreamRetryEvent
  | ToolCallEvent
  | ToolResultEvent
  | PermissionRequestEvent
  | PermissionDecisionEvent
  | PermissionUpdateEvent
  | ModeChangeEvent
  | PlanApprovalRequestEvent
  | PlanApprovedEvent
  | PlanRejectedEvent
  | UserQuestionEvent
  | TodoUpdateEvent
  | TurnEndEvent
  | ContextUsageEvent
  | ToolResultsClearedEvent
  | CompactionStartEvent
  | CompactionEndEvent
  | ErrorEvent
  | WarningEvent
  | McpServerStatusEvent
  | SubagentStartEvent
  | SubagentEndEvent
  | BackgroundTaskEndEvent
  | PlanVerificationEvent
  | RunEndEvent;

/** The `type` strings of {@link AgentEvent}. */
export type AgentEventType = AgentEvent['type'];

/** The event of a given type. */
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
