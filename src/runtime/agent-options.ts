import type { Model } from '../model/model.js';
import type { StreamRetryBackoff } from '../types/stream-retry-backoff.js';
import type { AutoModeOptions, CanUseTool, PermissionMode, PermissionRules } from '../types/permission.js';
import type { HooksConfig } from '../hooks/types.js';
import type { PlanStore } from '../plan/plan-store.js';
import type { Tool } from '../tools/types.js';
import type { ModelPrice } from '../model/pricing.js';
import type { ServerTool } from '../tools/server-tool.js';
import type { McpServerConfig, SharedMcpServer } from '../mcp/index.js';
import type { Skill } from '../skills/index.js';
import type { ToolSearchMode } from '../tool-search/index.js';
import type { AgentSnapshot } from './snapshot.js';
import type { SessionStore } from '../session/session-store.js';
import type { LeaseLostError } from '../errors/lease-lost-error.js';
import type { SnapshotKeys } from './snapshot-signature.js';
import type { TracerLike } from '../telemetry/tracer-like.js';
import type { ContextOptions, MemoryToolOptions } from '../context/index.js';
import type { AgentDefinition } from './agent-definition.js';

/** What `claimApproval` is asked about. */
export interface ClaimApprovalArgs {
  /** The pending approval being answered. */
  approvalId: string;
  /** Its session. */
  sessionId: string;
  /** The call it asks about. */
  toolUseId: string;
  /**
   * Aborts when the run is interrupted or the agent closed: the run ends at once without the
   * answer, so stop waiting on your database. A claim taken anyway is not applied.
   */
  signal: AbortSignal;
}

/** What `verifyPlanOnCompletion` may set. */
export interface VerifyPlanOnCompletionOptions {
  /**
   * The model the verifier runs on.
   * @default the agent's model
   */
  model?: Model;
}

/** Options of `createAgent`. */
export interface AgentOptions {
  /** The language model, e.g. `anthropicModel({ model: 'claude-sonnet-4-6' })` or `scriptedModel([...])`. */
  model: Model;
  /**
   * The system prompt. It never changes during a session (the request prefix stays cacheable).
   * @default no system prompt
   */
  system?: string;
  /**
   * The host's tools: function tools made with `defineTool` (or `deferTool(tool)` to defer one),
   * and provider server tools made with `serverTool()`. Sent to the model in this order, before
   * the tools of MCP servers and skills and the built-in tools.
   * @default []
   */
  tools?: Array<Tool | ServerTool>;
  // --- Tool sources (MCP servers, skills, tool search): resolved in `agent.ready`, before the first request.
  /**
   * MCP servers whose tools the agent offers as `mcp__<name>__<tool>`, going through the same
   * permission pipeline as any tool. `{ type: 'http', url, headers? }`, `{ type: 'sdk', server }`,
   * `{ type: 'transport', transport }`, or `stdioMcpServer({ command, args })` from
   * `agent-harness/node`. Connections open before the first request (`agent.ready`), reconnect
   * with backoff, report `mcp-server-status` events, and close with `agent.close()`. A server
   * made by `sharedMcpServer()` (given under its own name) lends one connection to every agent
   * that names it, for hosts that make an agent per request: it is connected once, and stays
   * open when an agent closes. Needs the optional peer dependency `@modelcontextprotocol/sdk`.
   * @default {} (no MCP servers)
   */
  mcpServers?: Record<string, McpServerConfig | SharedMcpServer>;
  /**
   * Skills the model can load with the built-in `Skill` tool: their names and descriptions are
   * listed in the system prompt (fixed for the session), their instructions reach the
   * conversation only when the model loads one. `defineSkill()` objects, or `loadSkills(dir)` from
   * `agent-harness/node` (a promise is awaited in `agent.ready`).
   * @default [] (no skills, no `Skill` tool)
   */
  skills?: Skill[] | Promise<Skill[]>;
  /**
   * How the model finds deferred tools (`deferLoading`): `'auto'` uses the provider's tool search
   * when the model runs it (BM25 variant), else a client-side `ToolSearch` tool; `'regex'` and
   * `'bm25'` pick the provider's variant; `'client'` always uses `ToolSearch`. A tool search is set
   * up when some tool is deferred, or when this option is given (then MCP tools that servers add
   * mid-session can be found too).
   * @default 'auto'
   */
  toolSearch?: ToolSearchMode;
  /**
   * Subagent types the model may start with the built-in `Agent` tool (in the tool list from the
   * first turn, with `TaskOutput` for background tasks): `{ name: { description, prompt, tools?,
   * readOnly?, model?, permissionMode?, maxTurns?, maxDepth? } }`, or the built-in types
   * (`BUILTIN_AGENTS`). A subagent never has more than its parent (tools a subset, the stricter
   * mode, the parent's rules, hooks and `canUseTool`; its history is managed with the parent's
   * `context` settings, its long results spilled into its own state); what it asks reaches `canUseTool` and the
   * events with its `agentId`, and a deferral suspends the parent's call until `resolveApproval`.
   * @default undefined (no `Agent` tool)
   */
  agents?: Record<string, AgentDefinition>;
  /**
   * How many subagents (started through the `Agent` tool) may be at work at once across this
   * agent's whole tree: the ones it starts, the ones they start at any depth (`maxDepth`),
   * background tasks and the plan verifier (`verifyPlan`, `verifyPlanOnCompletion`) share this one
   * bound, across runs; further `Agent` calls and verifications wait their turn. A
   * subagent waiting on foreground subagents it started does not count while it waits (its place
   * passes to the first of them, and it takes one again before it goes on), so a parent never
   * starves its children, and more subagents than this may be alive at once, the others waiting on
   * theirs. A fork (`agent.fork()`) has a bound of its own.
   * @default 4
   */
  maxSubagentConcurrency?: number;
  /**
   * When a run that carries out an approved plan completes with every todo completed, check the
   * work against the plan (`verifyPlan`): the verdict is a `plan-verification` event and
   * `RunResult.planVerification`. `true`, or `{ model }` to verify on another model. A verifier
   * that gives no valid verdict is reported as a non-fatal `error` event (a
   * `PlanVerificationError`), and the run still completes; a verification stopped by the host
   * (`interrupt()`, the run's `signal`, `close()`) ends the run `interrupted`, and the plan is
   * verified at the next run that completes.
   * @default false
   */
  verifyPlanOnCompletion?: boolean | VerifyPlanOnCompletionOptions;
  /**
   * The permission mode a new session starts in (`acceptEdits` approves edits inside the
   * workspace, which is `cwd`: without one, path edits are asked). A resumed session (`resume`) keeps
   * the mode it was stored with, so the documented `createAgent({ ...options, resume })` does not
   * send an approved plan back to planning; to change it, call `agent.setPermissionMode()` once
   * `agent.ready` resolves. A session stored in `bypassPermissions` resumes in `default`.
   * @default 'default'
   */
  permissionMode?: PermissionMode;
  /**
   * Required to start in, or switch to, `bypassPermissions`.
   * @default false
   */
  allowDangerouslySkipPermissions?: boolean;
  /**
   * Decides calls the pipeline could not (step 8).
   * @default undefined (such calls are deferred as pending approvals)
   */
  canUseTool?: CanUseTool;
  /**
   * Permission rules (`Tool` or `Tool(pattern)`); more can be added with `agent.addRules()` or
   * echoed suggestions.
   * @default no rules
   */
  rules?: PermissionRules;
  /**
   * The classifier for `auto` mode.
   * @default undefined (`auto` asks like `default`)
   */
  autoMode?: AutoModeOptions;
  /**
   * Lifecycle hooks: `{ PreToolUse: [{ matcher?, hook, timeoutMs? }], ... }`.
   * @default no hooks
   */
  hooks?: HooksConfig;
  /**
   * Workspace root, used to match path rules (`Edit(src/**)`) against relative paths, and the
   * workspace `acceptEdits` approves edits inside. Without it there is no workspace: in
   * `acceptEdits` a path edit by a tool without its own `checkPermissions` is asked (as an edit
   * outside the workspace is), unless a rule or hook allows it; edit-kind tools that name no path
   * (`ruleTarget` of kind `path`) are still approved.
   * @default undefined (paths are matched as given; no path is inside a workspace)
   */
  cwd?: string;
  /**
   * The most turns (model calls that answer the conversation) one run may make. The summary
   * calls of a compaction are not turns: they count in the run's usage, cost and `maxBudgetUsd`.
   * @default 30
   */
  maxTurns?: number;
  /**
   * Stop the run before a model call once its estimated cost reaches this many US dollars
   * (needs a price for the model: built in for Claude models, or `prices`). The cost counts
   * every model call of the run: its turns, its compactions' summaries, and its subagents'
   * calls, parallel and nested ones included, as they are made; a subagent stops before a model
   * call once the whole run reached the budget. A background subagent, which outlives the run,
   * has a budget of this size of its own.
   * @default undefined (no budget)
   */
  maxBudgetUsd?: number;
  /**
   * Prices in USD per million tokens by model id prefix, merged over `DEFAULT_PRICES`.
   * @default DEFAULT_PRICES
   */
  prices?: Record<string, ModelPrice>;
  /**
   * The session id.
   * @default a random `session_…` id (or the resumed session's)
   */
  sessionId?: string;
  /**
   * Marks this agent as a subagent: its plan is `{slug}-agent-{agentId}.md` and `EnterPlanMode`
   * is refused.
   * @default undefined (the main agent)
   */
  agentId?: string;
  /**
   * Continue a session: a snapshot (`agent.snapshot()`, possibly after `JSON.parse`), or a session
   * id to rebuild from `store`.
   * @default undefined (a new session)
   */
  resume?: AgentSnapshot | string;
  /**
   * Where the transcript is written as the session goes (an entry is stored before the event
   * announcing it is emitted). `memorySessionStore()` or `fileSessionStore({ dir })` from
   * `agent-harness/node`. A new session is written with its first run, its first change
   * (`setPermissionMode`, `addRules`, …), `flush()` or `close()`, whichever comes first, in one
   * append with what that records: `await agent.flush()` before handing its id to another
   * process that resumes it.
   * @default undefined (nothing is written)
   */
  store?: SessionStore;
  /**
   * The fencing token of the lease the host holds on this session (`store.leases.acquire`): every
   * append carries it, so once the lease is lost (expired, or taken over by another worker) the
   * store refuses the agent's writes with `LeaseLostError` and the run ends with it — a worker
   * that stalled past its lease can never write beside the one that took over. Needs `store`.
   * Forks (`agent.fork()`) are new sessions and write without it.
   * @default undefined (appends are not checked against leases)
   */
  fencingToken?: number;
  /**
   * The host's check of its lease on the session, read right before each tool call starts (a
   * subagent's too): return a `LeaseLostError` (with `reason`) once the lease is lost or past its
   * end by the host's own clock, `undefined` while it holds. The store fences writes, not a tool's
   * effects, and another worker may hold the session by then: so the call does not start, the
   * calls of the batch that have not started are answered as not run (pending approvals stay
   * pending), those answers are stored if the store still takes them, and the run ends with the
   * error, writing nothing more — the next holder continues the session. Synchronous: no store
   * round trip per call. `createAgentWorker` passes one in `session.agentOptions`. Forks are new
   * sessions and run without it. Without it, a call still does not start once the store refused
   * a write with `LeaseLostError`.
   * @default undefined (only a write the store refused stops the calls)
   * @example
   * const takenAt = Date.now();
   * const lease = await store.leases.acquire(sessionId, { holder, ttlMs: 30_000 });
   * createAgent({ model, store, resume: sessionId, fencingToken: lease.fencingToken, checkLease: () =>
   *   Date.now() < takenAt + 30_000 ? undefined
   *     : new LeaseLostError({ sessionId, fencingToken: lease.fencingToken, currentLease: undefined, now: Date.now(), reason: 'its 30000 ms ran out' }) });
   */
  checkLease?: () => LeaseLostError | undefined;
  /**
   * How long, once a run is interrupted (`interrupt()`, the run's `signal`, `close()`), the run
   * waits on a store write left unanswered before giving it up: the run then ends with a
   * `SessionWriteError` and the agent writes nothing more (load the session again to go on). A
   * store that answers in time changes nothing; a run that is not interrupted always waits, since
   * a tool runs only once its call is stored. `close()` also waits this long, at most, for a plan
   * the interrupted run was writing to the plan store (30 s without a `store`). Needs `store`.
   * @default 30000
   */
  storeWriteGraceMs?: number;
  /**
   * The arbiter of "exactly once" for hosts that keep snapshots themselves (no `store`): awaited
   * before an answer to a pending approval is applied; return true only for the first answer to
   * that approval id — e.g. insert the id into a table with a unique key and return whether the
   * insert succeeded. On false the run ends with `ApprovalClaimedError` and nothing runs; any value
   * other than true or false (a query result, a count) ends it with `ConfigurationError`, nothing run. With a
   * `store`, the store's revision check already refuses a second answer; a claim adds to it.
   * @default undefined (a snapshot resumed twice can answer the same approval twice: keep one copy, or use a store)
   */
  claimApproval?: (args: ClaimApprovalArgs) => boolean | Promise<boolean>;
  /**
   * A secret (at least 32 bytes) that signs snapshots (`$signature`, HMAC-SHA-256 over their
   * canonical JSON) and refuses, with `SnapshotInvalidError`, a snapshot that is unsigned or was
   * altered. Use it whenever a snapshot leaves your server (a browser, a client, a queue). The
   * agent keeps a copy of a `Uint8Array` key, so clearing your buffer afterwards changes nothing.
   *
   * To rotate the key without invalidating approvals that are still waiting, pass a list: the
   * first key signs, every key verifies (`[newKey, oldKey]`); take the old key out once the
   * snapshots signed with it are answered or expired. The agent copies the list too.
   * @example
   * createAgent({ model, snapshotKey: [process.env.SNAPSHOT_KEY!, process.env.SNAPSHOT_KEY_PREVIOUS!] })
   * @default undefined (snapshots are unsigned; they are still validated field by field)
   */
  snapshotKey?: SnapshotKeys;
  /**
   * The host's OpenTelemetry tracer (`trace.getTracer('my-app')` from `@opentelemetry/api`): spans
   * for the run (`invoke_agent`), each model call (`chat`), each tool call (`execute_tool`) and each
   * permission decision, with the GenAI semantic-convention attributes (operation, provider, model,
   * token usage, tool name and call id) and the permission step that decided. No prompt, model
   * text, tool input or tool output goes on a span: a tool call that ended in an error result is
   * marked failed with `error.type: 'tool_error'` only (its text, which may quote a secret, is on
   * the `tool-result` event); a failed model call or run records its error's message (the API's
   * refusal, the run's error). Nested spans need the
   * host's context manager (the OpenTelemetry Node SDK registers one). A tracer that throws never
   * breaks a run: the work goes on without that span, and the failure is reported once per run in
   * a non-fatal `error` event with a `TracerError`.
   * @default undefined (no spans, no cost)
   */
  tracer?: TracerLike;
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
  /**
   * Include the opt-in `AskUserQuestion` tool: the model may ask the user 1–4 multiple-choice
   * questions (also while planning). Questions reach `canUseTool` with `reason.type === 'question'`
   * and a `user-question` event, or wait as pending approvals. The host answers with
   * `updatedInput: { ...input, answers: { [question]: answer } }`; the input it is shown never
   * holds answers (the model cannot write them: they are stripped from its input), so only the
   * host's answers count.
   * @default false
   */
  askUserQuestion?: boolean;
  /**
   * Replaces the plan-mode instructions the model receives on entering plan mode.
   * @default DEFAULT_PLAN_MODE_INSTRUCTIONS (domain-neutral: explore read-only, consider options, ask, present with ExitPlanMode)
   */
  planModeInstructions?: string;
  /** Where approved plans are written. @default memoryPlanStore() */
  planStore?: PlanStore;
  /**
   * Tool results longer than this many characters are truncated with a note: the text of the
   * whole result (a result of many blocks counts them together), an error result (a thrown
   * error's message, a denial) as much as an output. With `context.spill` on, long results are
   * spilled instead.
   * @default 100_000
   */
  maxToolResultChars?: number;
  /**
   * How the context window is managed (DESIGN §9): the window (and a table the host can extend),
   * spilling long tool results, clearing stale ones, automatic compaction near the window and
   * reactive compaction on "prompt is too long". `agent.contextUsage` and the `context-usage`
   * event report how full it is; `agent.compact()` compacts on demand.
   * @default {} (clearing and compaction on, spill off, the window from the table)
   */
  context?: ContextOptions;
  /**
   * Adds the memory tool (the Messages API's client-side `memory_20250818` shape: view, create,
   * str_replace, insert, delete, rename under `/memories`) backed by the store given:
   * `memoryMemoryStore()`, `fileMemoryStore({ dir })` from `agent-harness/node`, or the host's own.
   * Paths never leave the store's root. Its writes are asked in every mode but `bypassPermissions`
   * (in `acceptEdits` too: the store is not the workspace, and later sessions read its notes);
   * `rules: { allow: ['memory'] }` approves them.
   * @default undefined (no memory tool)
   */
  memory?: MemoryToolOptions;
  /**
   * How many concurrency-safe tool calls run at once.
   * @default 10
   */
  maxToolConcurrency?: number;
  /**
   * How many tool calls of one model answer are considered at most. The calls past it are answered
   * with an error result that asks the model to send them again in a later answer: none of them
   * runs, is asked about, or gets an approval card. Bounds what one hostile or runaway answer (a
   * thousand `tool_use` blocks) can start. Subagents inherit it.
   * @default 64
   */
  maxToolCallsPerTurn?: number;
  /**
   * How many times a turn is retried after a retryable failure in the middle of a stream
   * (e.g. `overloaded_error`), in all: the attempt after a "prompt is too long" compaction shares
   * the turn's retries. A compaction's summary call has as many of its own. HTTP-level retries are
   * the model adapter's.
   * @default 2
   */
  maxStreamRetries?: number;
  /**
   * The wait before each of those retries: exponential with jitter and capped (see
   * {@link StreamRetryBackoff}), or the `retryAfterMs` the error carries; `false` retries at once.
   * A compaction's summary call waits the same way before its retries.
   * `interrupt()` and `close()` end the wait at once. Subagents inherit it.
   * @default { initialDelayMs: 500, maxDelayMs: 8000 }
   */
  streamRetryBackoff?: StreamRetryBackoff | false;
  /**
   * What the model is sent, after a refusal (an answer it stopped with stop reason `refusal`), of
   * that refused answer. `withhold`: the next prompt's request leaves the refused answer out (with
   * its tool calls, none of which ran), and the model is told in a short note that its previous
   * answer was withheld; the user's messages stay. The API asks for the refused turn to be removed
   * or rephrased before going on, since a conversation that still holds it tends to be refused
   * again. The transcript keeps the refused answer (its `message` entry, then an
   * `answer-withheld` entry); `agent.messages`, the history the model is sent, no longer holds
   * it. To leave the prompt that was refused out too, fork the session before it
   * (`agent.fork({ upTo })`). `keep`: the refused answer stays in the history and is sent on.
   * Subagents inherit it.
   * @default 'withhold'
   */
  refusedAnswers?: 'withhold' | 'keep';
}
