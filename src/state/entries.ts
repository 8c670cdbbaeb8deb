import type { McpToolRecord } from '../types/mcp-tool-record.js';
import type { RunEndError } from './run-end-error.js';
import type { Message } from '../model/messages.js';
import type { Usage } from '../model/usage.js';
import type { ToolResultBlock } from '../model/messages.js';
import type { PendingApproval } from '../types/pending-approval.js';
import type { PermissionDecision, PermissionMode, PermissionResult, PermissionUpdate } from '../types/permission.js';
import type { Todo } from '../types/todo.js';
import type { HostAnswer, NestedRun, SessionState, SpilledToolOutput } from './session-state.js';

/** The transcript entry format version this build writes. */
export const ENTRY_SCHEMA_VERSION = 2;

/** Fields every transcript entry carries. */
export interface EntryBase {
  $schemaVersion: number;
  /** Unique id of this entry. */
  id: string;
  /** The entry before it in the session, or null for the first. */
  parentId: string | null;
  /**
   * The entry's 1-based position in the session's transcript; the session's revision is the
   * `seq` of its last entry. Version 1 entries lack it: loading numbers them by position.
   */
  seq: number;
  /** ISO 8601 time of writing. */
  timestamp: string;
  sessionId: string;
  /** Set for entries of a subagent (a sidechain). */
  agentId?: string;
}

/** A conversation message. */
export interface MessageEntry extends EntryBase {
  kind: 'message';
  message: Message;
  /** The provider's message id (assistant messages), used to merge split lines. */
  messageId?: string;
  /** A plan handed to a fresh context by the host (the user message restarting from a plan). */
  planContent?: string;
  /** Structured result metadata of a tool call in this (user) message, as Claude Code records it. */
  toolUseResult?: unknown;
  /** Claude Code: the line is a compaction summary. */
  isCompactSummary?: boolean;
  /** Usage of the model call that produced this (assistant) message, counted once per provider message. */
  usage?: Usage;
  /**
   * Set on an assistant message the model stopped as a refusal (`'refusal'`; other stop reasons
   * are not recorded): its tool calls are never run, also when a session is read back with them
   * unanswered. Transcripts written before it existed do not have it.
   */
  stopReason?: 'refusal';
  /**
   * For an assistant message: the MCP tool each of its calls named when the model made it, by
   * `tool_use` id (calls of other tools are left out). A call undecided at a crash is decided on
   * resume only where its name still means that tool of that server.
   */
  mcpTools?: Record<string, McpToolRecord>;
}

/** The permission mode changed. */
export interface ModeChangeEntry extends EntryBase {
  kind: 'mode-change';
  from: PermissionMode;
  to: PermissionMode;
  /**
   * Who changed it: `host`, `plan-approved`, `enter-plan-mode`, `permission-update`, `resume`, or
   * `claude-code` (read from a Claude Code session).
   */
  reason: string;
  /** The mode saved on entering plan mode, restored on approval. */
  prePlanMode?: PermissionMode;
  /** The reminder queued for the model's next user message. */
  reminder?: string;
}

/** The todo list was replaced. */
export interface TodoUpdateEntry extends EntryBase {
  kind: 'todo-update';
  todos: Todo[];
}

/** An approved plan, recorded so it survives losing the plan store. */
export interface PlanSnapshotEntry extends EntryBase {
  kind: 'plan-snapshot';
  /** The session's plan slug. */
  slug: string;
  /** The plan file name, `{slug}.md` or `{slug}-agent-{agentId}.md`. */
  name: string;
  text: string;
  /**
   * Where the text was captured: absent for a plan saved when it was approved; `'file-history'`
   * for a copy of the plan file from Claude Code's file checkpoints (the file as it was at a user
   * prompt or before an edit, possibly a draft), which a later approved plan supersedes.
   */
  capturedFrom?: 'file-history';
}

/** A reference to the plan file (an attachment kept through compaction). */
export interface PlanReferenceEntry extends EntryBase {
  kind: 'plan-reference';
  /** The plan file name or path. */
  name: string;
  /** The plan text when the attachment carried it. */
  text?: string;
}

/** Session metadata: the plan slug once drawn, and anything else a resume needs. */
export interface SessionMetaEntry extends EntryBase {
  kind: 'session-meta';
  slug?: string;
  /** The session this one was forked from. */
  forkedFrom?: string;
}

/** One tool call of the open batch was answered (executed, failed, denied, interrupted). */
export interface ToolResultEntry extends EntryBase {
  kind: 'tool-result';
  toolUseId: string;
  toolName: string;
  result: ToolResultBlock;
}

/** The pipeline decided about a tool call (the audit log). */
export interface PermissionDecisionEntry extends EntryBase {
  kind: 'permission-decision';
  /**
   * The decision. For an allowed call it is stored without `input`: the `call-allowed` entry
   * written with it holds the input that runs (the `permission-decision` event carries the
   * decision whole). Transcripts written by earlier builds have the input here too.
   */
  decision: PermissionDecision;
}

/** A tool call was parked for the host. */
export interface ApprovalPendingEntry extends EntryBase {
  kind: 'approval-pending';
  approval: PendingApproval;
}

/** The host answered a pending approval. */
export interface ApprovalResolvedEntry extends EntryBase {
  kind: 'approval-resolved';
  approvalId: string;
  toolUseId: string;
  decision: Exclude<PermissionResult, { behavior: 'defer' }>;
  /** The validated input that will run, for `allow`. */
  input?: unknown;
}

/** A tool call was allowed (by the pipeline or by the host's answer) with the input that will run. */
export interface CallAllowedEntry extends EntryBase {
  kind: 'call-allowed';
  toolUseId: string;
  /** The input that will run. */
  input: unknown;
  /** Permission updates the tool applies itself when it runs. */
  heldUpdates?: PermissionUpdate[];
  /** Told to the model with the result (e.g. that the host changed the input before it ran). */
  note?: string;
  /** What the host's answer said beyond "allow". */
  hostAnswer?: HostAnswer;
  /** For an MCP tool: what its name meant when the call was made (see `MessageEntry.mcpTools`); it runs only on that tool. */
  mcpTool?: McpToolRecord;
}

/** An approved plan asked for a fresh context (set), or the fresh context was started (cleared). */
export interface ContextResetEntry extends EntryBase {
  /** The entry's type. */
  kind: 'context-reset';
  /** The request, or undefined once it was carried out. */
  request?: { plan: string; name?: string };
}

/** An allowed call that cannot have started goes back to undecided, to be decided again (on resume). */
export interface CallResetEntry extends EntryBase {
  /** The entry's type. */
  kind: 'call-reset';
  /** The call of the open batch that goes back to undecided. */
  toolUseId: string;
  /** Why: `resume`. */
  reason: string;
}

/** A running tool call suspended: it waits on a nested run (a subagent's pending approvals). */
export interface CallSuspendedEntry extends EntryBase {
  kind: 'call-suspended';
  toolUseId: string;
  nested: NestedRun;
}

/** A text block queued for the next user message (a reminder that is not a mode change). */
export interface ReminderEntry extends EntryBase {
  kind: 'reminder';
  text: string;
}

/** The request prefix (system prompt and tool names) the session is sent with. */
export interface PrefixEntry extends EntryBase {
  kind: 'prefix';
  prefix: NonNullable<SessionState['prefix']>;
}

/**
 * The whole session state at one point: seeds a new session (a fork, a snapshot resumed into an
 * empty store) and the state after a compaction. Loading starts again from the last one.
 */
export interface CheckpointEntry extends EntryBase {
  kind: 'checkpoint';
  state: SessionState;
  /**
   * Why it was written: `startup`, `fork`, `snapshot`, `repair`, `clear-context`, `compaction`,
   * `media-refused`, or `results-cleared` (after a clearing, once the results cleared since the
   * last checkpoint hold as much text as the state: a resume starts here instead of reading them).
   */
  reason: string;
  /**
   * For a compaction: the boundary. Entries before this one hold the full history; the state
   * carries the compacted one (the summary, the state restated, the kept messages).
   */
  compaction?: CompactionRecord;
}

/** What a compaction boundary records. */
export interface CompactionRecord {
  /** What started it: the threshold (`auto`), a refused prompt (`reactive`) or the host (`manual`). */
  trigger: 'auto' | 'reactive' | 'manual';
  /** The handoff summary the model wrote. */
  summary: string;
  /** The context size before, in tokens. */
  tokensBefore: number;
  /** How many messages the summary replaced. */
  summarizedMessages: number;
  /** How many messages were kept verbatim. */
  keptMessages: number;
  /**
   * Set when no summary could be written because even the summary request was too long (a
   * reactive compaction's last resort): the oldest messages were dropped, and `summary` is the
   * note that says so.
   */
  trimmed?: true;
}

/** A tool output too long for the context was kept aside whole (its result holds a preview). */
export interface SpillEntry extends EntryBase {
  kind: 'spill';
  /** The handle the model pages with. */
  handle: string;
  output: SpilledToolOutput;
}

/** Old tool results were replaced by stubs to save context (the results' ids keep their places). */
export interface ResultsClearedEntry extends EntryBase {
  kind: 'results-cleared';
  /** Each cleared result's call and the stub text that replaces its content. */
  stubs: Array<{ toolUseId: string; content: string }>;
}

/**
 * The answer the model stopped as a refusal (the session's last answer) is left out of the
 * conversation the model is sent from now on, with the answers to its calls (none of which ran),
 * and `note` is queued for the next user message to tell the model so. The refused answer stays
 * in the transcript (its `message` entry); only the history sent on changes. Written when a
 * prompt follows a refusal (see the agent option `refusedAnswers`).
 */
export interface AnswerWithheldEntry extends EntryBase {
  /** The entry's type. */
  kind: 'answer-withheld';
  /** What the model is told in place of its answer. */
  note: string;
}

/**
 * Automatic compaction paused after a compaction that did not help (`resumesAt` set), or the
 * pause ended (`resumesAt` absent). Sessions written before this entry existed load unpaused.
 */
export interface CompactionPauseEntry extends EntryBase {
  /** The entry's type. */
  kind: 'compaction-pause';
  /** The context size, in tokens, at which automatic compaction resumes; absent: it is not paused. */
  resumesAt?: number;
}

/** Rules were added to the session. */
export interface RulesAddedEntry extends EntryBase {
  kind: 'rules-added';
  behavior: 'allow' | 'deny' | 'ask';
  rules: string[];
}

/** The session's rules of one behavior were replaced, or some of them removed. */
export interface RulesChangedEntry extends EntryBase {
  kind: 'rules-changed';
  behavior: 'allow' | 'deny' | 'ask';
  /** `replace`: the session's list becomes `rules`; `remove`: these rules leave it. */
  operation: 'replace' | 'remove';
  rules: string[];
}

/** Directories were added to (or removed from) the session's workspace. */
export interface DirectoriesChangedEntry extends EntryBase {
  /** The entry's type. */
  kind: 'directories-changed';
  /** Whether `directories` were added or removed. */
  operation: 'add' | 'remove';
  /** The directories (absolute paths). */
  directories: string[];
}

/** A tool changed its per-agent state (e.g. the files it has read). */
export interface ToolStateEntry extends EntryBase {
  kind: 'tool-state';
  key: string;
  value: unknown;
}

/** Marks a compaction boundary: messages before it were summarized. */
export interface CompactBoundaryEntry extends EntryBase {
  kind: 'compact-boundary';
}

/** A run started. */
export interface RunStartEntry extends EntryBase {
  kind: 'run-start';
  runId: string;
}

/** A run ended. */
export interface RunEndEntry extends EntryBase {
  kind: 'run-end';
  runId: string;
  status: string;
  usage: Usage;
  /** For status `error`: what ended the run (absent for other statuses, and in entries written before it was recorded). */
  error?: RunEndError;
}

/** One entry of a session transcript. */
export type SessionEntry =
  | MessageEntry
  | ModeChangeEntry
  | TodoUpdateEntry
  | PlanSnapshotEntry
  | PlanReferenceEntry
  | SessionMetaEntry
  | CompactBoundaryEntry
  | RunStartEntry
  | RunEndEntry
  | ToolResultEntry
  | PermissionDecisionEntry
  | ApprovalPendingEntry
  | ApprovalResolvedEntry
  | RulesAddedEntry
  | RulesChangedEntry
  | DirectoriesChangedEntry
  | ToolStateEntry
  | CallAllowedEntry
  | ContextResetEntry
  | CallResetEntry
  | CallSuspendedEntry
  | ReminderEntry
  | PrefixEntry
  | CheckpointEntry
  | SpillEntry
  | ResultsClearedEntry
  | CompactionPauseEntry
  | AnswerWithheldEntry;

/** The entry format versions this build reads. */
export const SUPPORTED_ENTRY_VERSIONS: readonly number[] = [1, 2];

/** An entry before the journal stamps it (id, parent, seq, time, version, session). */
export type EntryDraft = SessionEntry extends infer E ? (E extends SessionEntry ? Omit<E, keyof EntryBase> & { agentId?: string } : never) : never;
