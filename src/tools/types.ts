import type { AgentEvent } from '../events/agent-event.js';
import type { SubagentRunSummary } from '../events/run-result.js';
import type { ContentBlock, ImageBlock, TextBlock, ToolResultContentBlock } from '../model/messages.js';
import type { RunSpend } from '../model/run-spend.js';
import type { PermissionMode, PermissionResult, PermissionUpdate, ToolPermissionCheck } from '../types/permission.js';
import type { HostAnswer, NestedRun } from '../state/session-state.js';
import type { ToolDisplay } from '../types/tool-display.js';
import type { ToolAnnotations } from '../types/tool-annotations.js';

export type { ToolAnnotations } from '../types/tool-annotations.js';

import type { ToolKind } from '../types/tool-kind.js';

export type { ToolKind };

/**
 * A per-agent key/value store for tools (e.g. which files were read). It is JSON, kept in
 * snapshots, and copied to forks and resumed agents.
 */
export interface ToolStateStore {
  /** Reads a value; `undefined` when unset. */
  get<T = unknown>(key: string): T | undefined;
  /** Sets a JSON-serializable value; `null` removes the key. */
  set(key: string, value: unknown): void;
  /**
   * Resolves once every value set so far is stored with the session (the session store took the
   * append); rejects with the store's failure. Await it before a change a kill -9 must not outrun,
   * e.g. a file checkpoint (`recordFileCheckpoint`) before the file is written. Present on the
   * agent's own store; a store a test makes may leave it out.
   */
  flush?(): Promise<void>;
}

/** The running agent, as a tool sees it. */
export interface ToolAgentContext {
  /** The session this call belongs to. */
  readonly sessionId: string;
  /** Set for subagents. */
  readonly agentId: string | undefined;
  /** The permission mode at the time of the call. */
  readonly permissionMode: PermissionMode;
  /** Per-agent JSON state for tools, persisted with the session. */
  readonly toolState: ToolStateStore;
  /** Directories the host added to the session (`addDirectories` permission updates), absolute. */
  readonly directories?: readonly string[];
}

/**
 * The run a tool call belongs to, for tools that start runs of their own (a subagent): events of
 * a nested run go to the outermost run's sink, marked with the nested agent's id and the call
 * that started it.
 */
export interface ToolRunContext {
  /** The id of the outermost run. */
  readonly runId: string;
  /** Delivers an event into the outermost run's stream (and its listeners' agent). */
  readonly sink: (event: AgentEvent) => void;
  /** The agent making the call (undefined for the main agent). */
  readonly agentId: string | undefined;
  /** For a call inside a nested run: the parent's call that started it. */
  readonly parentToolUseId: string | undefined;
  /** The tracing span of the call, when the host traces (an OpenTelemetry span). */
  readonly span: unknown;
  /**
   * Adds a nested run's usage to this run's result (`RunResult.usage`, `costUsd`, and the
   * per-agent `subagents` breakdown, with the nested run's own subagents).
   */
  readonly reportSubagent?: (summary: SubagentRunSummary, nested?: readonly SubagentRunSummary[]) => void;
  /**
   * The running cost of the outermost run and every run nested in it, for a nested run to spend
   * from (it stops at the run's `maxBudgetUsd`).
   * @internal
   */
  readonly spend?: RunSpend;
}

/** The argument of a tool's `execute`. */
export interface ToolExecuteArgs<Input> {
  /** The validated input. */
  input: Input;
  /**
   * Aborted on interrupt or timeout; long-running tools must honour it. Once it fires, the call
   * is answered as interrupted ("it may have had partial effects. Do not assume it completed")
   * without waiting for `execute`, whatever it returns later, also when its effect had already
   * happened: an interrupt is never held up by a tool. (Only the built-in `ExitPlanMode`, whose
   * effect is recorded in the session itself, answers with its own result after an interrupt.)
   * A tool whose effect must not be lost to an interrupt makes it idempotent, keyed by
   * `toolUseId`, so the model can safely ask again.
   */
  signal: AbortSignal;
  /** The id of the `tool_use` block being answered. */
  toolUseId: string;
  /** The agent running the tool. */
  agent: ToolAgentContext;
  /** The run the call belongs to (undefined when a test or host calls `execute` directly). */
  run?: ToolRunContext;
  /**
   * For a tool with `handlesHostAnswer`: the permission updates the host gave with its
   * answer, for the tool to apply when it sees fit (they were not applied).
   */
  permissionUpdates?: PermissionUpdate[];
  /**
   * When the host answered a question about this call: whether it replaced the model's input
   * (`edited`: e.g. the answers to `AskUserQuestion`, an edited plan) and asked for a fresh context.
   */
  hostAnswer?: HostAnswer;
}

/**
 * Returned by `execute` (or `resume`) to suspend the call: it waits on a nested run (a subagent)
 * whose own calls wait for the host. The nested state is kept in the session (snapshot, store);
 * its pending approvals are listed with the parent's, addressed by their path; answering one
 * calls the tool's `resume`. Make it with {@link suspendCall}.
 */
export interface ToolSuspension {
  readonly type: 'tool-suspension';
  readonly nested: NestedRun;
}

/** Suspends a call on a nested run (see {@link ToolSuspension}). */
export function suspendCall(nested: NestedRun): ToolSuspension {
  return { type: 'tool-suspension', nested };
}

/** Whether a tool returned a suspension. */
export function isToolSuspension(value: unknown): value is ToolSuspension {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'tool-suspension';
}

/** The argument of a tool's `resume`: the host answered an approval inside the nested run. */
export interface ToolResumeArgs<Input> extends ToolExecuteArgs<Input> {
  /** What the call waits on, as it was suspended. */
  nested: NestedRun;
  /** The host's answer: the approval's id, its path below this call, and the decision. */
  approval: { id: string; path: string[]; decision: Exclude<PermissionResult, { behavior: 'defer' }> };
}

/** The argument of `validateInput` and `checkPermissions`. */
export interface ToolCheckArgs<Input> {
  input: Input;
  toolUseId: string;
  agent: ToolAgentContext;
  signal: AbortSignal;
}

/**
 * What `execute` may return: a string, content blocks (text and images), or any other value,
 * which is serialized as JSON. Return `{ isError: true, content }` via {@link ToolOutput} to
 * report a failure the model should see without throwing.
 */
export type ToolReturn = string | Array<TextBlock | ImageBlock> | ToolOutput | unknown;

/** An explicit tool output. */
export interface ToolOutput {
  readonly type: 'tool-output';
  content: string | ToolResultContentBlock[];
  isError?: boolean;
}

/**
 * What one call reads, so that deny and ask rules on `Read(...)` hold for it whatever the tool
 * (a path deny rule on reading protects the path from every tool that reads it).
 */
export interface ReadTargets {
  /** Files the call reads, each spelling of them (as written, relative to the workspace, real path). */
  paths: string[];
  /**
   * Directories the call searches recursively: a `Read` rule that may match something below one
   * of them makes the call asked, unless the tool skips what the rules keep from reading
   * (`skipsRuleMatches`).
   * @default []
   */
  directories?: string[];
  /**
   * The tool itself skips, below `directories`, every file a `Read` deny or ask rule matches (it
   * reads them with `readRuleMatcher`, see the permissions module).
   * @default false
   */
  skipsRuleMatches?: boolean;
  /** Set when the call reads something that cannot be named before it runs (`cat $(…)`, `cat *`): `Read` rules then make it asked. */
  unknown?: string;
}

/**
 * What one call writes, so that deny and ask rules on `Edit(...)` and `Write(...)` hold for it
 * whatever the tool (`echo x > secrets/key` in Bash meets `Edit(secrets/**)`).
 */
export interface WriteTargets {
  /** Files and directories the call writes, creates or removes, each spelling of them (as written, relative to the workspace, real path). */
  paths: string[];
  /**
   * Those of `paths` that are directories, where the call may write below (`rm -r dir`, `cp x dir`):
   * a rule matching below one denies or asks as for the directory itself, one that may match
   * something below it makes the call asked.
   * @default []
   */
  directories?: string[];
  /** Set when the call writes something that cannot be named before it runs (`rm $F`, `rm *`, `… | xargs rm`): `Edit` and `Write` deny and ask rules then make it asked. */
  unknown?: string;
}

/** Which input field rule patterns (`Tool(pattern)`) apply to, and how they match. */
export interface ToolRuleTarget {
  /** Input field holding the value, e.g. `file_path` or `command`. */
  field: string;
  /** `path`: glob on a path; `command`: `prefix:*` or exact command. */
  kind: 'path' | 'command';
  /**
   * Other spellings of the same target for deny and ask rules to match too, e.g. the real path
   * of a path reached through a symlink, relative to the workspace and absolute. Deny rules then
   * hold however the model spells the path.
   */
  aliases?: (value: string) => string[];
  /**
   * What a call reads: deny and ask rules on `Read(...)` apply to these paths too (so
   * `Read(**\/.env)` also stops `grep x .env` in Bash and a Grep over a folder holding `.env`).
   * Must not throw; a throw counts as reading something unknown.
   */
  reads?: (input: unknown) => ReadTargets;
  /**
   * What a call writes: deny and ask rules on `Edit(...)` and `Write(...)` apply to these paths
   * too (so `Edit(secrets/**)` also stops `echo x > secrets/key` and `rm secrets/key` in Bash).
   * Must not throw; a throw counts as writing something unknown.
   */
  writes?: (input: unknown) => WriteTargets;
}

/** A tool as the runtime holds it. Create one with {@link defineTool}. */
export interface Tool<Input = any> {
  readonly name: string;
  readonly description: string;
  /** The JSON Schema sent to the model, generated once at definition time. */
  readonly jsonSchema: Record<string, unknown>;
  readonly readOnly: boolean;
  readonly concurrencySafe: boolean;
  readonly kind: ToolKind;
  readonly timeoutMs: number | undefined;
  readonly ruleTarget: ToolRuleTarget | undefined;
  /**
   * The provider tool type this tool implements (e.g. `memory_20250818`): a model that knows it
   * sends the provider's native definition instead of `jsonSchema` (see `ToolDefinition.type`).
   */
  readonly providerType?: string | undefined;
  /** Validates raw model input against the schema. */
  parseInput(input: unknown): { ok: true; value: Input } | { ok: false; issues: string[] };
  /**
   * Validates an input the host wrote (an `updatedInput` from `canUseTool`, `resolveApproval` or
   * a hook) when the host may set fields the model may not: `AskUserQuestion`'s `answers`, which
   * `parseInput` strips from the model's input so the model cannot answer its own questions.
   * @default parseInput
   * @internal
   */
  parseHostInput?(input: unknown): { ok: true; value: Input } | { ok: false; issues: string[] };
  /** The tool's own semantic validation; a string is the problem, sent to the model. */
  validateInput?(args: ToolCheckArgs<Input>): string | undefined | Promise<string | undefined>;
  /**
   * Checks an input the host wrote (its edit of a call it was asked about) instead of
   * `validateInput`, when a check of the model's call does not hold for the host's answer:
   * `ExitPlanMode` refuses a model's call outside plan mode, but not the host's edited plan when
   * the host left plan mode while the approval waited.
   * @default validateInput
   * @internal
   */
  validateHostInput?(args: ToolCheckArgs<Input>): string | undefined | Promise<string | undefined>;
  /** The tool's own permission opinion on a call (paths outside the workspace, writing commands). */
  checkPermissions?(args: ToolCheckArgs<Input>): ToolPermissionCheck | Promise<ToolPermissionCheck>;
  /** Whether this particular call is read-only (e.g. a Bash command that only reads). */
  isReadOnlyCall?(input: Input): boolean;
  /**
   * The definition is sent only when the model finds the tool through tool search
   * (`defer_loading`), so it costs no context until then. See `deferTool`.
   */
  readonly deferLoading?: boolean;
  /**
   * Hints about what the tool does, shown to the host with each permission question (an MCP
   * server's tool annotations, for instance).
   */
  readonly annotations?: ToolAnnotations;
  /**
   * The tool handles the host's answer to a question about a call itself: the permission updates
   * that come with allowing it are handed to `execute` (`permissionUpdates`) instead of being
   * applied at once, and no note about an edited input is added to the result — the tool says
   * what the host's answer means (e.g. `ExitPlanMode` changes the mode only once the plan is
   * saved, and tells the model the user edited the plan).
   */
  readonly handlesHostAnswer: boolean;
  /**
   * A call is a question for the user, not a permission matter (`AskUserQuestion`): it is asked
   * in every mode (also `bypassPermissions`; `dontAsk` refuses it), allow rules and the auto
   * classifier never answer it, and no note about an edited input is added to its result.
   */
  readonly requiresUserInteraction: boolean;
  /** What an approval card shows for a call; asked only when the call needs an approval. */
  display?(args: ToolCheckArgs<Input>): ToolDisplay | undefined | Promise<ToolDisplay | undefined>;
  execute(args: ToolExecuteArgs<Input>): ToolReturn | ToolSuspension | Promise<ToolReturn | ToolSuspension>;
  /** Continues a call this tool suspended, once the host answers an approval inside it. */
  resume?(args: ToolResumeArgs<Input>): ToolReturn | ToolSuspension | Promise<ToolReturn | ToolSuspension>;
  /**
   * Puts back a file this tool changed, for `agent.rewindFiles` (the tool kept its previous
   * content with `recordFileCheckpoint`). Throwing reports the file as not restored.
   */
  restoreFile?(args: RestoreFileArgs): Promise<void>;
}

/** The argument of a tool's `restoreFile`. */
export interface RestoreFileArgs {
  /** The file, as the tool recorded it. */
  path: string;
  /** The content to put back, base64; `null` when the file did not exist before (delete it). */
  content: string | null;
  /** The agent rewinding (its tool state holds the tool's records, e.g. read records). */
  agent: ToolAgentContext;
}

export type { ContentBlock, ToolDisplay };
