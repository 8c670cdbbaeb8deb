import type { StopReason } from '../model/model.js';
import type { ToolKind } from '../types/tool-kind.js';
import type { CompactionTrigger } from '../types/context-usage.js';
/**
 * Hook vocabulary: the events, what each hook receives and what it may return. A leaf module.
 */
import type { PermissionMode, PermissionReason, PermissionUpdate } from '../types/permission.js';

/** Fields every hook input carries. */
export interface HookInputBase {
  /** The session the hook runs for. */
  sessionId: string;
  /** Set when the event comes from a subagent. */
  agentId?: string;
  /**
   * Aborted when the run is interrupted or the hook's `timeoutMs` passes (`SubagentStop` and
   * `SessionEnd` say when theirs abort); long hooks should honour it. Set by the runner.
   */
  signal: AbortSignal;
}

/** Fields every tool-event hook input carries. */
export interface ToolHookInputBase extends HookInputBase {
  /** The tool's name, e.g. `Write`. */
  toolName: string;
  /** The tool input (for `PreToolUse`, after any rewrite by an earlier hook). */
  toolInput: unknown;
  /** The id of the `tool_use` block. */
  toolUseId: string;
}

/** A session was created or resumed. */
export interface SessionStartHookInput extends HookInputBase {
  hookEventName: 'SessionStart';
  /** `startup` for a new session, `resume` for one restored from a snapshot or store, `fork` for a fork. */
  source: 'startup' | 'resume' | 'fork';
}

/** The host submitted a prompt; the hook may add context or block it. */
export interface UserPromptSubmitHookInput extends HookInputBase {
  hookEventName: 'UserPromptSubmit';
  /** The prompt as submitted. */
  prompt: string;
}

/** A tool call is about to be decided (after schema validation, before any rule). */
export interface PreToolUseHookInput extends ToolHookInputBase {
  hookEventName: 'PreToolUse';
  /** The permission mode at the time of the call. */
  permissionMode: PermissionMode;
  /**
   * What the tool is, for hooks that treat reads and writes differently (e.g. a plan phase).
   * The agent always sets it; it is optional only so hand-built inputs in tests may leave it out.
   */
  tool?: {
    /** Whether this call only reads (per call: a read-only shell command counts). */
    readOnly: boolean;
    kind: ToolKind;
  };
}

/** A tool call would be asked to the host; the hook may answer instead of `canUseTool`. */
export interface PermissionRequestHookInput extends ToolHookInputBase {
  hookEventName: 'PermissionRequest';
  /** The permission mode at the time of the call. */
  permissionMode: PermissionMode;
  /** Why the call is asked. */
  reason: PermissionReason;
  /** The "always allow" suggestions the host would get. */
  suggestions: PermissionUpdate[];
}

/** A tool call executed successfully. */
export interface PostToolUseHookInput extends ToolHookInputBase {
  hookEventName: 'PostToolUse';
  /** What the tool returned, before serialization. */
  toolResponse: unknown;
}

/** A tool call failed (threw, timed out, or returned an error output). */
export interface PostToolUseFailureHookInput extends ToolHookInputBase {
  hookEventName: 'PostToolUseFailure';
  /** The failure. */
  error: Error;
}

/**
 * The model ended its turn without tool calls (to run); the hook may send it back to work, except
 * after a refusal (see {@link StopHookOutput.continue}).
 */
export interface StopHookInput extends HookInputBase {
  hookEventName: 'Stop';
  /** True when a `Stop` hook already sent the model back in this run (avoid endless loops). */
  stopHookActive: boolean;
  /**
   * Why the model's last answer stopped, as the API reported it (`end_turn`, `max_tokens`,
   * `refusal`, …; null when it did not say). After `refusal` the run ends whatever the hook returns.
   */
  stopReason: StopReason | null;
}

/**
 * A subagent is starting (the parent's `Agent` call), having taken its place under
 * `maxSubagentConcurrency`; the hook may add context to its prompt. Its `signal` aborts with the
 * parent's run (for a background subagent, when the agent is closed); aborted, the subagent does
 * not start. A subagent that starts always ends with the `SubagentStop` hooks.
 */
export interface SubagentStartHookInput extends HookInputBase {
  hookEventName: 'SubagentStart';
  /** The subagent's id. */
  agentId: string;
  /** Its type (the key in `createAgent({ agents })`). */
  subagentType: string;
  /** The task it is given. */
  prompt: string;
  /** The parent's call that starts it. */
  parentToolUseId: string;
  /** Started with `run_in_background`. */
  background: boolean;
}

/**
 * A subagent's run ended (completed, stopped, failed) or stopped to wait for an approval. Its
 * `signal` aborts when the parent's run is interrupted while the hook runs, when the agent is
 * closed, or at the hook's `timeoutMs` — not because of an interrupt that came before: a subagent
 * stopped by an interrupt (`status: 'interrupted'`) gets a live signal, so the hook can clean up
 * after it (the interrupted run ends without waiting for it, the subagent keeps its place under
 * `maxSubagentConcurrency` until the hook returns; `agent.close()` aborts it, and its events are
 * delivered before `close()` resolves). For a background subagent, which outlives the
 * run that started it, only closing the agent and the timeout abort it.
 */
export interface SubagentStopHookInput extends HookInputBase {
  hookEventName: 'SubagentStop';
  /** The subagent's id. */
  agentId: string;
  /** Its type. */
  subagentType: string;
  /** The parent's call that started it. */
  parentToolUseId: string;
  /** How its run ended (`awaiting-approval` when it waits for the host). */
  status: string;
  /** Its final text. */
  text: string;
  /** Why its last model answer stopped (`refusal`: it refused, and `text` is not a finished report); null when it made no model call or the model did not say. */
  stopReason: StopReason | null;
}

/**
 * The session is ending (the agent is closed). There is no run to interrupt: its `signal` aborts
 * when the signal given to `agent.close({ signal })` does, or when the hook's `timeoutMs` passes.
 */
export interface SessionEndHookInput extends HookInputBase {
  hookEventName: 'SessionEnd';
  /** Why it ends, e.g. `closed`. */
  reason?: string;
}

/** The history is about to be compacted; the hook may add instructions, or veto an automatic compaction. */
export interface PreCompactHookInput extends HookInputBase {
  hookEventName: 'PreCompact';
  /** `auto` (near the window), `reactive` (the API refused the prompt as too long) or `manual` (`agent.compact()`). */
  trigger: CompactionTrigger;
  /** The context size now, in tokens. */
  tokensBefore: number;
  /** The model's context window, in tokens. */
  window: number;
  /** Instructions for the summary given so far (options, `agent.compact({ instructions })`). */
  instructions?: string;
}

/** The history was compacted. */
export interface PostCompactHookInput extends HookInputBase {
  hookEventName: 'PostCompact';
  trigger: CompactionTrigger;
  /** The handoff summary that now opens the history. */
  summary: string;
  tokensBefore: number;
  /** The context size after, in tokens (estimated). */
  tokensAfter: number;
  /** Set when the oldest messages were dropped because no summary could be written (see `CompactionEndEvent.trimmed`); `summary` is the note that says so. */
  trimmed?: true;
}

/** What a `PreCompact` hook may return. */
export interface PreCompactHookOutput {
  /** Added to the summary request's instructions (e.g. what must be kept). */
  instructions?: string;
  /**
   * Skip this compaction. Honoured only for `auto`: a manual compaction was asked for, and a
   * reactive one is all that keeps the session alive.
   */
  block?: boolean;
}

/** What a `PostCompact` hook may return (nothing is used). */
export type PostCompactHookOutput = Record<string, never>;

/** What a `SessionStart` hook may return. */
export interface SessionStartHookOutput {
  /** Text appended to the history for the model. */
  additionalContext?: string;
}

/** What a `UserPromptSubmit` hook may return. */
export interface UserPromptSubmitHookOutput {
  /** Refuse the prompt; the run ends without calling the model. */
  block?: boolean;
  /** Why the prompt was blocked. */
  reason?: string;
  /** Text added to the history next to the prompt. */
  additionalContext?: string;
}

/** What a `PreToolUse` hook may return. Several hooks compose: deny > defer > ask > allow. */
export interface PreToolUseHookOutput {
  /**
   * `deny` refuses the call at once; `ask` and `defer` send it to the host (like an ask rule, or
   * straight to a pending approval); `allow` approves it like an allow rule. Deny rules and plan
   * mode still apply to `allow`, `ask` and `defer`. Omit to have no opinion.
   */
  decision?: 'allow' | 'deny' | 'ask' | 'defer';
  /** Why; sent to the model for `deny`, to the host otherwise. */
  reason?: string;
  /** A replacement input; the next hook sees it, and the result is validated against the schema. */
  updatedInput?: unknown;
}

/** What a `PermissionRequest` hook may return. */
export interface PermissionRequestHookOutput {
  /** Answer the question instead of `canUseTool`; omit to let the host decide. */
  decision?: 'allow' | 'deny';
  /** For `deny`: sent to the model. */
  message?: string;
  /** For `allow`: a replacement input, validated against the schema. */
  updatedInput?: unknown;
}

/** What a `PostToolUse` hook may return. */
export interface PostToolUseHookOutput {
  /** Text added for the model after the tool result. */
  additionalContext?: string;
  /** Replaces the tool's output before it is sent to the model. */
  updatedOutput?: unknown;
}

/** What a `PostToolUseFailure` hook may return. */
export interface PostToolUseFailureHookOutput {
  /** Text added for the model after the error result. */
  additionalContext?: string;
}

/** What a `Stop` hook may return. */
export interface StopHookOutput {
  /**
   * Send the model back to work instead of stopping (bounded by the loop). Not honoured when the
   * model stopped its answer as a refusal (`stopReason: 'refusal'`): the API asks not to go on
   * from a refused answer as it is (it tends to be refused again), so the run ends and a `warning`
   * event (source `hooks`) says the hook's request was not followed.
   */
  continue?: boolean;
  /** Told to the model when it is sent back. */
  reason?: string;
}

/** What a `SubagentStart` hook may return. */
export interface SubagentStartHookOutput {
  /** Text added to the subagent's prompt. */
  additionalContext?: string;
}

/** What a `SubagentStop` hook may return (nothing is used). */
export type SubagentStopHookOutput = Record<string, never>;

/** What a `SessionEnd` hook may return (nothing is used). */
export type SessionEndHookOutput = Record<string, never>;

/** Each hook event's input. */
export interface HookInputs {
  SessionStart: SessionStartHookInput;
  UserPromptSubmit: UserPromptSubmitHookInput;
  PreToolUse: PreToolUseHookInput;
  PermissionRequest: PermissionRequestHookInput;
  PostToolUse: PostToolUseHookInput;
  PostToolUseFailure: PostToolUseFailureHookInput;
  Stop: StopHookInput;
  SubagentStart: SubagentStartHookInput;
  SubagentStop: SubagentStopHookInput;
  SessionEnd: SessionEndHookInput;
  PreCompact: PreCompactHookInput;
  PostCompact: PostCompactHookInput;
}

/** Each hook event's output. */
export interface HookOutputs {
  SessionStart: SessionStartHookOutput;
  UserPromptSubmit: UserPromptSubmitHookOutput;
  PreToolUse: PreToolUseHookOutput;
  PermissionRequest: PermissionRequestHookOutput;
  PostToolUse: PostToolUseHookOutput;
  PostToolUseFailure: PostToolUseFailureHookOutput;
  Stop: StopHookOutput;
  SubagentStart: SubagentStartHookOutput;
  SubagentStop: SubagentStopHookOutput;
  SessionEnd: SessionEndHookOutput;
  PreCompact: PreCompactHookOutput;
  PostCompact: PostCompactHookOutput;
}

/** The name of a hook event. */
export type HookEventName = keyof HookInputs;

/** The input a hook of event `E` receives. */
export type HookInput<E extends HookEventName> = HookInputs[E];

/** The output a hook of event `E` may return. */
export type HookOutput<E extends HookEventName> = HookOutputs[E];

/** What a caller hands to the runner: the input without the fields the runner sets. */
export type HookCallInput<E extends HookEventName> = Omit<HookInputs[E], 'hookEventName' | 'signal'>;

/** A hook function: one object in, one object out (or nothing, meaning no opinion). */
export type HookFunction<E extends HookEventName> = (
  input: HookInput<E>,
) => HookOutput<E> | void | Promise<HookOutput<E> | void>;

/** One configured hook. */
export interface HookEntry<E extends HookEventName> {
  /**
   * A regular expression (source) that must match the whole tool name, e.g. `Write|Edit`.
   * Only for tool events (`PreToolUse`, `PermissionRequest`, `PostToolUse`, `PostToolUseFailure`).
   * `*` or an empty string match every tool.
   * @default undefined (every tool)
   */
  matcher?: string;
  /** The hook. */
  hook: HookFunction<E>;
  /**
   * Give up on the hook after this many milliseconds (a `PreToolUse` hook then denies its call).
   * One past 2,147,483,647 (about 24.8 days, the longest timer) sets no limit.
   * @default 60000
   */
  timeoutMs?: number;
}

/** The `hooks` option: hook entries per event, run in order. */
export type HooksConfig = { [E in HookEventName]?: Array<HookEntry<E>> };
