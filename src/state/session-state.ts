import type { McpToolRecord } from '../types/mcp-tool-record.js';
import type { Message, TextBlock, ToolResultBlock } from '../model/messages.js';
import type { Usage } from '../model/usage.js';
import type { PendingApproval } from '../types/pending-approval.js';
import type { PermissionMode, PermissionRules, PermissionUpdate } from '../types/permission.js';
import type { Todo } from '../types/todo.js';
import { argumentError, isObjectValue } from '../errors/argument-error.js';

/**
 * Where one tool call of the open batch stands:
 * - `undecided`: not through the permission pipeline yet;
 * - `allowed`: allowed with its final input, not answered yet (running, or waiting for an
 *   earlier call of the batch);
 * - `deferred`: waiting for the host's answer to its pending approval;
 * - `suspended`: started, and waiting on something nested (a subagent's own pending approvals);
 * - `done`: answered (executed, failed, denied or interrupted).
 */
export type BatchCallState = 'undecided' | 'allowed' | 'deferred' | 'suspended' | 'done';

/** What the host's answer to a question said beyond "allow": whether it changed the input, and asked for a fresh context. */
export interface HostAnswer {
  /** The host (`canUseTool`, a `PermissionRequest` hook, `resolveApproval`) replaced the model's input. */
  edited?: boolean;
  /** The host asked to continue in a fresh context (plan approvals). */
  clearContext?: boolean;
}

/**
 * The nested run a suspended call waits on (a subagent run): its own session state, with its own
 * open batch and pending approvals, and whatever the tool needs to continue it.
 */
export interface NestedRun {
  /** The nested agent's id (pending approvals inside it carry it). */
  agentId: string;
  /** The nested agent's own session state. */
  state: SessionState;
  /** Plain JSON the suspending tool keeps to continue the call (e.g. the subagent's type). */
  data?: unknown;
}

/**
 * One tool call of the assistant message being answered. Plain JSON. The call's raw input is
 * not kept here: it is the `tool_use` block's input in the last assistant message (one source).
 */
export interface BatchCall {
  toolUseId: string;
  toolName: string;
  state: BatchCallState;
  /** For `allowed`: the input that will run (validated, after hooks and host edits). */
  input?: unknown;
  /**
   * For `allowed`: permission updates the host gave with the answer that the tool applies itself
   * when it runs (a tool with `handlesHostAnswer`, e.g. `ExitPlanMode` sets the mode only
   * once the plan is saved).
   */
  heldUpdates?: PermissionUpdate[];
  /** For `allowed`: told to the model with the result (e.g. that the host changed the input). */
  note?: string;
  /** For `allowed`: what the host's answer said beyond "allow", for the tool (see `ToolExecuteArgs.hostAnswer`). */
  hostAnswer?: HostAnswer;
  /**
   * For an MCP tool (kept until the batch closes): what the name meant when the model made the
   * call (recorded with its message, so also for a call undecided at a crash): the server, the
   * tool's own name, and fingerprints of the server and the tool's definition. It is decided (or
   * runs) only where the name still means that tool of that server as then listed; elsewhere it
   * is refused.
   */
  mcpTool?: McpToolRecord;
  /** For `deferred`: the pending approval; the input that would run is `approval.input`. */
  approval?: PendingApproval;
  /** For `suspended`: what the call waits on. */
  nested?: NestedRun;
  /** For `done`: the answer. */
  result?: ToolResultBlock;
}

/**
 * The tool calls of the latest assistant message that are not all answered yet, in `tool_use`
 * order. While it exists the history ends with that assistant message; the results are
 * appended as one user message, in order, when every call is done.
 */
export interface OpenBatch {
  calls: BatchCall[];
  /**
   * The calls are of an answer the model stopped as a refusal: none runs or is asked about; they
   * are answered as not run (by the run that received the answer, or the next run of a session
   * read back with them open).
   */
  refused?: true;
}

/** What the first request of the session was sent with, kept until a compaction rewrites it. */
export interface RequestPrefix {
  /** The system prompt blocks. */
  system: TextBlock[];
  /**
   * The names of the tools sent in full, in the order they are sent. Tools sent deferred
   * (`defer_loading`) are not part of the prefix; sessions stored by earlier builds list them
   * too.
   */
  toolNames: string[];
}

/**
 * Everything a session is, as plain JSON. It changes only by applying transcript entries
 * (`applyEntry`), live and on load alike, so the live state, the state folded from a store and
 * the state in a snapshot are the same.
 */
export interface SessionState {
  sessionId: string;
  /** Set for a subagent's session. */
  agentId?: string;
  /** The conversation in Anthropic wire shape; adjacent messages of one role are merged. */
  messages: Message[];
  /** The usage of the model call behind each message (null for user messages), aligned with `messages`. */
  messageUsage: Array<Usage | null>;
  /** The usage of the latest model call. */
  lastUsage?: Usage;
  /** The request prefix in use (system and tool names), once the first request was sent. */
  prefix?: RequestPrefix;
  permissionMode: PermissionMode;
  /** The mode to restore when a plan is approved. */
  prePlanMode?: PermissionMode;
  /** Text blocks waiting to open the next user message (mode reminders and the like). */
  pendingReminders: string[];
  todos: Todo[];
  /** The session's plan slug, once drawn. */
  planSlug?: string;
  /** The approved plan. */
  plan?: { name: string; text: string };
  /** Rules added during the session (on top of those passed as options). */
  sessionRules: Required<PermissionRules>;
  /** The calls of the last assistant message not all answered yet. */
  openBatch?: OpenBatch;
  /** Per-agent tool state (e.g. which files were read). */
  toolState: Record<string, unknown>;
  /** Directories added during the session for the workspace tools (`addDirectories`). */
  directories?: string[];
  /**
   * An approved plan asked for a fresh context: once the batch that approved it is answered, the
   * history is replaced by one user message carrying the plan (and the todos).
   */
  contextReset?: { plan: string; name?: string };
  /**
   * Tool outputs too long for the context, kept whole by handle (see `spillToolResult`); the
   * model pages through them with the built-in `ReadToolOutput` tool.
   */
  spilled?: Record<string, SpilledToolOutput>;
  /** How many compactions this session went through (absent before the first). */
  compactions?: number;
  /**
   * Set after a compaction that did not help (it left the context at or past the automatic
   * compaction threshold, or an automatic one failed): no automatic compaction until the context
   * reaches this many tokens. Absent when automatic compaction is not paused; a context back
   * under the threshold, or a compaction that helped, ends the pause.
   */
  autoCompactionResumesAt?: number;
  /**
   * The history ends on an answer the model stopped as a refusal (and the answers to its calls,
   * which did not run): `continue()` ends on it instead of calling the model on top of it (going on
   * from a refused answer as it is tends to be refused again). Absent otherwise; the next message
   * (a prompt, a later answer) clears it.
   */
  endedOnRefusal?: true;
}

/** A tool output kept aside whole: the model sees a preview and the handle it is kept under. */
export interface SpilledToolOutput {
  /** The call whose result it is. */
  toolUseId: string;
  /** The tool that produced it. */
  toolName: string;
  /** The whole text of the output. */
  text: string;
}

/** The state of a new session. */
export function createSessionState(init: { sessionId: string; agentId?: string; permissionMode?: PermissionMode }): SessionState {
  if (!isObjectValue(init) || typeof init.sessionId !== 'string') throw argumentError('createSessionState', 'init', 'an object with a sessionId string ({ sessionId })', init);
  const state: SessionState = {
    sessionId: init.sessionId,
    messages: [],
    messageUsage: [],
    permissionMode: init.permissionMode ?? 'default',
    pendingReminders: [],
    todos: [],
    sessionRules: { allow: [], deny: [], ask: [] },
    toolState: {},
  };
  // Set only when given (no spread of a conditional object: this runs for every new agent).
  if (init.agentId !== undefined) state.agentId = init.agentId;
  return state;
}
