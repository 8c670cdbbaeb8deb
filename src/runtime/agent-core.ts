import type { CheckedPrefix } from './checked-prefix.js';
import type { HistoryScan } from './history-scan.js';
import type { SessionClaim } from '../session/open-sessions.js';
import EventEmitter from 'eventemitter3';
import { spillToolResultUnchecked } from '../context/spill/spill-tool-result.js';
import { applyEntryUnchecked } from '../state/apply-entry.js';
import { ToolUseIdIndex } from '../history/tool-use-id-index.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { BackgroundTaskInfo, PlanVerification } from '../events/run-result.js';
import type { BackgroundTaskRun } from './background-task-run.js';
import type { AssistantMessage, ContentBlock, TextBlock, ToolResultBlock, ToolUseBlock } from '../model/messages.js';
import type { RequestTool, StopReason } from '../model/model.js';
import type { Usage } from '../model/usage.js';
import type { PendingApproval } from '../types/pending-approval.js';
import type { McpToolRecord } from '../types/mcp-tool-record.js';
import { mcpToolOrigin } from '../mcp/mcp-tool.js';
import { type PermissionMode, type PermissionRules, type PermissionUpdate } from '../types/permission.js';
import { assertPermissionMode } from '../permissions/assert-permission-mode.js';
import { modeReminder } from '../permissions/mode-reminder.js';
import { READ_RULES_KEY_PREFIX } from '../permissions/read-rules.js';
import { stricterMode, subagentMode } from '../permissions/stricter-mode.js';
import { createRuleSet, type RuleSet } from '../permissions/rule-set.js';
import { LiveRuleSet } from './live-rule-set.js';
import { applyCheckedPermissionUpdates, applyPermissionUpdates, checkPermissionUpdates } from './permission-updates.js';
import { ensurePlanSlug, savePlan, type SavePlanDetails } from './save-plan.js';
import { requestFreshContext, startFreshContext } from './fresh-context.js';
import type { RuleBehavior } from '../permissions/compile-rule.js';
import { assertRulesNameTools } from '../permissions/assert-rules-name-tools.js';
import type { ResolvedToolSources, Toolbox } from '../tool-sources/index.js';
import { DEFAULT_PRICES, findPrice, type ModelPrice } from '../model/pricing.js';
import type { Todo } from '../types/todo.js';
import { diffTodos } from '../todos/diff-todos.js';
import type { Tool, ToolAgentContext, ToolRunContext, ToolStateStore } from '../tools/types.js';
import type { AgentServices } from '../tools/builtin/agent-services.js';
import { memoryPlanStore } from '../plan/memory-plan-store.js';
import type { PlanStore } from '../plan/plan-store.js';
import type { TranscriptWriter } from '../session/journal.js';
import { completesBatch, pendingApprovalsOf, wellFormedEntry, wellFormedMessages, type BatchCall, type EntryDraft, type SessionState } from '../state/index.js';
import type { AgentOptions } from './agent-options.js';
import { SNAPSHOT_SCHEMA_VERSION, type AgentSnapshot } from './snapshot.js';
import { signSnapshot, signingKey } from './snapshot-signature.js';
import { AgentContext, stateSpillStore } from './agent-context.js';
import { createToolAgentContext } from './tool-agent-context.js';
import { withSessionFileCheckpoints } from '../tools/file-checkpoints.js';
import { isSessionReadToolOutput, type ContextUsage, type SpillStore } from '../context/index.js';
import { guardTracer, type TracerOperation } from '../telemetry/index.js';
import { TracerError } from '../errors/tracer-error.js';
import { describeThrown } from '../errors/describe-thrown.js';
import { wellFormedText } from '../model/code-point-boundary.js';
import { ownValue } from '../model/own-value.js';

/** An event before the agent stamps it with its session and agent ids. */
export type AgentEventInput = AgentEvent extends infer E ? (E extends AgentEvent ? Omit<E, 'sessionId' | 'agentId'> : never) : never;

/** How an agent object came to be, for the `SessionStart` hook. */
export type SessionOrigin = 'startup' | 'resume' | 'fork';

const RULE_BEHAVIORS: readonly RuleBehavior[] = ['allow', 'deny', 'ask'];

/**
 * One agent's session: its state (changed only by committing entries) and the services the loop
 * and the built-in tools share. Internal: hosts use the `Agent` facade.
 */
export class AgentCore implements AgentServices {
  readonly sessionId: string;
  readonly agentId: string | undefined;
  /** The options as given, except `tracer`: the host's tracer guarded so it cannot break a run (see {@link reportTracerFailure}). */
  readonly options: AgentOptions;
  /** The run sink (or the idle agent) a tracer failure was last reported to: one report per run. */
  #tracerFailureReportedTo: unknown;
  #emitter: EventEmitter | undefined;
  /** Listeners; the `Agent` that wraps this core hands over its own emitter (see `Agent`), so a core makes one only when none was given. */
  get emitter(): EventEmitter {
    return (this.#emitter ??= new EventEmitter());
  }
  set emitter(emitter: EventEmitter) {
    this.#emitter = emitter;
  }
  readonly tools: ReadonlyMap<string, Tool>;
  /** Tool definitions in the fixed order sent on every turn (only deferred tools are ever appended). */
  readonly toolDefinitions: RequestTool[];
  // --- Tool sources: the toolbox owns `tools` and `toolDefinitions`; the sources own MCP connections.
  readonly toolbox: Toolbox;
  readonly toolSources: ResolvedToolSources | undefined;
  readonly system: TextBlock[];
  #planStore: PlanStore | undefined;
  /** Where plans are saved: the host's store, else one in memory made when first needed. */
  get planStore(): PlanStore {
    return (this.#planStore ??= this.options.planStore ?? memoryPlanStore());
  }
  readonly price: ModelPrice | undefined;
  /**
   * The rules that decide this agent's calls: the options' (for a subagent, all of its parents'
   * rules as they are now) plus the session's. One object for the agent's life, so a decision that
   * waits on the host still sees a deny added meanwhile when it checks again.
   */
  readonly rules: LiveRuleSet;
  /** Bumped on every change of this agent's session rules (a subagent's rules follow it). */
  #rulesRevision = 0;

  /** Changes whenever the rules of this agent or of one above it change. */
  get rulesRevision(): number {
    return this.#rulesRevision + (this.sessionParent?.rulesRevision ?? 0);
  }

  #inheritRules: (() => PermissionRules) | undefined;
  /**
   * For a subagent: the rules it inherits, read from its parent as they are now (all of them: a
   * deny rule on `Read(…)` paths holds for its Bash and Grep too). Without it, the options' rules.
   */
  set inheritRules(inherit: (() => PermissionRules) | undefined) {
    this.#inheritRules = inherit;
    this.rules.invalidate();
  }
  /** The session state. Change it only through {@link commit}. */
  state: SessionState;
  /** Calls executing now. */
  readonly running = new Set<string>();
  /** What the loop keeps of the history between requests (see `HistoryScan`); made at the first request. */
  historyScan: HistoryScan | undefined;
  /** The request prefix the last run start checked (see `recordRequestPrefix`). */
  checkedPrefix: CheckedPrefix | undefined;
  /**
   * Executing calls whose effect is already recorded in the session (the built-in `ExitPlanMode`
   * once its plan is saved): an interrupt from then on waits for the call's own answer instead of
   * answering it as interrupted, so the model is not told "did not complete" about what took effect.
   * Made at the first such call (most agents never have one: an empty `Set` is about 140 bytes an idle agent keeps).
   */
  recordedCalls: Set<string> | undefined;
  /** The tool_use ids the history uses, read incrementally. */
  readonly toolUseIds = new ToolUseIdIndex();
  /** Per-agent JSON state for tools, persisted with the session (`tool-state` entries). */
  readonly toolState: ToolStateStore;
  /** What a tool call is told about its agent: one object, its mode and directories read live. */
  readonly toolContext: ToolAgentContext;
  /** How this agent object came to be, for the `SessionStart` hook; cleared once it has fired. */
  sessionStartSource: SessionOrigin | undefined;
  /**
   * The `SessionStart` hooks' context when the prompt they fired for was blocked by a
   * `UserPromptSubmit` hook (the history unchanged): it goes with the next prompt instead.
   */
  heldSessionStartContext: TextBlock[] | undefined;
  /** For a subagent: the parent's call that started it (stamped on its events). */
  parentToolUseId: string | undefined;
  /**
   * Set for a background subagent and every subagent below it: nobody waits for the host's
   * answer, so a call that would be parked is denied with this message (see `DecidePermissionArgs`).
   */
  cannotWait: string | undefined;
  /**
   * Set by `createAgent` when `verifyPlanOnCompletion` is on: checks the work against the
   * approved plan at the end of a run whose todos are all completed.
   */
  verifyOnCompletion: ((args: { signal: AbortSignal; reportSubagent?: ToolRunContext['reportSubagent'] }) => Promise<PlanVerification | undefined>) | undefined;
  #backgroundTasks: Map<string, BackgroundTaskRun> | undefined;
  /**
   * The background subagent tasks at work in this agent's whole tree, by task id: those it
   * started and those its subagents started, at any depth. One map, the top agent's, shared by
   * every subagent below it, so `agent.close()` stops them all and a run's result lists them all;
   * made when first used.
   */
  get backgroundTasks(): Map<string, BackgroundTaskRun> {
    return this.sessionParent?.backgroundTasks ?? (this.#backgroundTasks ??= new Map());
  }
  /** Copies of the background tasks at work in this agent's tree, for a run's result (none made for a tree that never started one). */
  runningBackgroundTasks(): BackgroundTaskInfo[] {
    if (this.sessionParent) return this.sessionParent.runningBackgroundTasks();
    return [...(this.#backgroundTasks?.values() ?? [])].map((task) => ({ ...task.info }));
  }
  /**
   * The host's check of its lease on the session (`createAgent({ checkLease })`), read right
   * before a tool call starts (see `lostLease`); a subagent's asks its parent's. None for a fork.
   */
  leaseCheck: (() => Error | undefined) | undefined;
  /** What stopped a tool call of the active run from starting: the lease was lost. Cleared when a run starts. */
  leaseLost: Error | undefined;
  /**
   * A subagent this run waited on was stopped by a host's denial with `interrupt` (not by this
   * run's own abort): the host asked to stop the run it sees, so this one ends `interrupted` once
   * its batch is answered too. Cleared when a run starts.
   */
  nestedStopRequested = false;
  /**
   * Set by the loop while it runs a batch whose results it sends on as soon as the batch is done:
   * the answer that completes the batch is then held for the message carrying the results, which
   * follows without a wait (one append for both, and that result stored once, in the message), and
   * an earlier answer given while an append is in flight is held until that append ends (the
   * message takes it along when the batch completes first).
   */
  holdBatchEnd = false;
  /** Whether `agent.close()` was called on the agent the host made (see {@link closed}). */
  #closed = false;
  /** Aborted by `agent.close()` on the agent the host made; made only when something waits on it. */
  #closing: AbortController | undefined;
  /** Whether `agent.close()` was called on the agent the host made (the session's store hold is released). */
  get closed(): boolean {
    return this.#closed;
  }
  /**
   * Marks the agent closed (by `agent.close()`): {@link treeClosing} aborts for its whole tree.
   * Nothing to abort when nothing asked for the signal (most agents): a signal made after this
   * is born aborted.
   */
  markClosed(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.sessionClaim?.release();
    this.#closing?.abort(new Error('closed'));
  }
  /** This agent's hold on its stored session in this process (with a store): released by `close()`. */
  sessionClaim: SessionClaim | undefined;
  /** Whether the agent at the top of this one's tree was closed (nothing more may start in it). */
  get treeClosed(): boolean {
    return this.sessionParent?.treeClosed ?? this.closed;
  }
  /** Aborted once the agent at the top of this one's tree is closed: what stops work that outlives runs. */
  get treeClosing(): AbortSignal {
    if (this.sessionParent) return this.sessionParent.treeClosing;
    if (!this.#closing) {
      this.#closing = new AbortController();
      if (this.#closed) this.#closing.abort(new Error('closed'));
    }
    return this.#closing.signal;
  }
  /** Receives events of the active run (set by the run). */
  runSink: ((event: AgentEvent) => void) | undefined;
  /** What was skipped or repaired while loading this session, announced once listeners are attached. */
  loadWarnings: string[] = [];
  /** Writes the transcript when the host gave a session store. */
  readonly journal: TranscriptWriter | undefined;
  /** Entries committed without a store (the revision of a store-less session). */
  private unstoredRevision: number;
  /** The context window: its tracker and the settings of spill, clearing and compaction. */
  readonly context: AgentContext;
  #spillStore: SpillStore | undefined;
  /** Spilled tool outputs, kept in the session state (`spill` entries); made when first used. */
  get spillStore(): SpillStore {
    return (this.#spillStore ??= stateSpillStore(
      () => this.state,
      ({ handle, ...output }) => this.commit({ kind: 'spill', handle, output }),
    ));
  }

  constructor(
    options: AgentOptions,
    toolbox: Toolbox,
    state: SessionState,
    origin: SessionOrigin,
    journal: TranscriptWriter | undefined,
    revision = 0,
    toolSources?: ResolvedToolSources,
  ) {
    // A subagent inherits its parent's tracer already guarded (its failures are the parent's run's).
    this.options = options.tracer ? { ...options, tracer: guardTracer(options.tracer, ({ operation, error }) => this.reportTracerFailure(operation, error)) } : options;
    this.journal = journal;
    // The lease is on the host's session; a fork is another session.
    this.leaseCheck = origin === 'fork' ? undefined : options.checkLease;
    this.unstoredRevision = revision;
    this.sessionStartSource = origin;
    // A resumed history (a snapshot, a transcript written by an older version) may hold a lone
    // surrogate that no entry of this version would let in: every request would be refused.
    const messages = wellFormedMessages(state.messages);
    this.state = messages === state.messages ? state : { ...state, messages };
    this.sessionId = state.sessionId;
    this.agentId = state.agentId;
    this.toolbox = toolbox;
    this.toolSources = toolSources;
    this.tools = toolbox.byName;
    this.toolDefinitions = toolbox.definitions;
    this.system = [...(options.system ? [{ type: 'text' as const, text: wellFormedText(options.system) }] : []), ...(toolSources?.system ?? [])];
    this.price = findPrice(options.model.modelId, options.prices ? { ...DEFAULT_PRICES, ...options.prices } : DEFAULT_PRICES);
    this.context = new AgentContext(options.model, options.context);
    this.assertRulesNameTools(options.rules);
    this.rules = new LiveRuleSet(() => this.compileRules(), () => this.rulesRevision);
    // Compiled now, so a malformed rule fails createAgent.
    void this.rules.current;
    assertPermissionMode(state.permissionMode);
    // A resumed session in bypassPermissions is switched to default right after loading.
    if (state.permissionMode === 'bypassPermissions' && origin !== 'resume') this.assertBypassAllowed();

    const core = this;
    const own: ToolStateStore = {
      // Own keys only: a key such as `toString` or `constructor` is the host's, unset until set.
      get: <T>(key: string) => ownValue(core.state.toolState, key) as T | undefined,
      set: (key, value) => core.commit({ kind: 'tool-state', key, value }),
      flush: () => core.flushOrThrow(),
    };
    // A subagent's file checkpoints are the session's: rewinding the parent undoes its changes.
    this.toolState = withSessionFileCheckpoints(own, () =>
      core.sessionParent !== undefined && core.parentToolUseId !== undefined ? { toolState: core.sessionParent.toolState, toolUseId: core.parentToolUseId } : undefined,
    );
    this.toolContext = createToolAgentContext(this);
  }

  /** Directories the host added to the session (`addDirectories` permission updates). */
  get directories(): readonly string[] {
    return this.state.directories ?? [];
  }

  /** The rules before the session's: inherited from the parent now, else the options'. */
  private baseRules(): PermissionRules | undefined {
    return this.#inheritRules?.() ?? this.options.rules;
  }

  private compileRules(): RuleSet {
    const rules = createRuleSet(this.baseRules());
    for (const behavior of RULE_BEHAVIORS) {
      if (this.state.sessionRules[behavior].length) rules.add(behavior, this.state.sessionRules[behavior]);
    }
    return rules;
  }

  /** The rules this agent decides with, as lists: the options' (or inherited) and the session's. */
  ruleLists(): Required<PermissionRules> {
    const base = this.baseRules();
    const lists = { allow: [], deny: [], ask: [] } as Required<PermissionRules>;
    for (const behavior of RULE_BEHAVIORS) lists[behavior] = [...(base?.[behavior] ?? []), ...this.state.sessionRules[behavior]];
    return lists;
  }

  /**
   * For a subagent: the most its parent allows now. Its mode is never looser than this, whatever
   * it switches to (a plan approved inside it, a parent switched to plan mode while it waits).
   */
  modeCeiling: (() => PermissionMode) | undefined;

  /**
   * For a subagent: why one of its calls may not run now, or undefined when it may (a read-only
   * type and a call that does not only read: an MCP tool its server no longer marks read-only, a
   * call the tool's `isReadOnlyCall` says writes). Asked with the model's input when a call is
   * decided, before anyone is asked about it, and with the input it would run with right before
   * it runs.
   */
  toolRefusal: ((tool: Tool, input: unknown) => string | undefined) | undefined;

  /**
   * For a subagent: the agent whose session it works in. Its rules follow that agent's as they
   * change (see {@link inheritRules}), and rules a host answer adds, replaces or removes for the
   * subagent (an "always allow" on its approval card) are the session's: they go to that agent
   * (see `changeSessionRules`).
   */
  sessionParent: AgentCore | undefined;

  /**
   * For a subagent: the loosest mode it may ever have, its type's `permissionMode` (a planning
   * type plans for as long as it lives). Unlike {@link modeCeiling} it never lifts, so a mode
   * change is capped as it is made: nothing records or announces a mode the subagent cannot have
   * (an approved `ExitPlanMode`, a host answer that sets a mode).
   */
  modeCap: PermissionMode | undefined;

  /** Whether this agent can never leave plan mode (a subagent whose type's `permissionMode` is `plan`). */
  get alwaysPlans(): boolean {
    return this.modeCap === 'plan';
  }

  /** The current permission mode (for a subagent, capped by its type's and its parent's: see {@link modeCap}, {@link modeCeiling}). */
  get mode(): PermissionMode {
    const own = this.capped(this.state.permissionMode);
    return this.modeCeiling ? subagentMode(this.modeCeiling(), own) : own;
  }

  private capped(mode: PermissionMode): PermissionMode {
    return this.modeCap === undefined ? mode : stricterMode(this.modeCap, mode);
  }

  /** The approved plan. */
  get plan(): { name: string; text: string } | undefined {
    return this.state.plan;
  }

  /** The session's revision: the `seq` of its last entry. */
  get revision(): number {
    return this.journal?.revision ?? this.unstoredRevision;
  }

  hasTool(name: string): boolean {
    return this.tools.has(name);
  }

  /**
   * Rules must name tools this agent has: a typo in a deny rule would otherwise never apply.
   * @throws ConfigurationError naming the rule and the tools there are.
   */
  assertRulesNameTools(rules: PermissionRules | undefined): void {
    const tools = [...this.tools.values()];
    assertRulesNameTools(rules, [...this.tools.keys()], {
      mcpServers: this.toolSources?.mcpServerNames ?? [],
      pathReaders: tools.some((tool) => tool.ruleTarget?.reads !== undefined),
      pathWriters: tools.some((tool) => tool.ruleTarget?.writes !== undefined),
    });
  }

  /**
   * The only way the state changes: records each entry (when there is a store) and applies it
   * with `applyEntry` — the function that also folds a stored transcript on load. What an entry
   * puts in the history has its lone surrogates replaced by U+FFFD first (`wellFormedEntry`).
   */
  commit(...drafts: EntryDraft[]): void {
    if (drafts.length === 0) return;
    // Where text enters the history: no lone surrogate gets in, whichever path it came by (a tool's
    // error, a host's denial, a hook's reason or context, a prompt), so no later request is refused.
    for (let index = 0; index < drafts.length; index++) drafts[index] = wellFormedEntry(drafts[index]!);
    this.commitWellFormed(drafts);
  }

  /** {@link commit} for entries that already went through `wellFormedEntry` (scanned once, not twice). */
  private commitWellFormed(drafts: readonly EntryDraft[]): void {
    if (this.#oneWrite && this.journal) this.#oneWrite.drafts.push(...drafts);
    else this.journal?.record(...drafts);
    if (!this.journal) this.unstoredRevision += drafts.length;
    this.applyDrafts(drafts);
  }

  /** Applies committed drafts to the state (recorded by the caller). */
  private applyDrafts(drafts: readonly EntryDraft[]): void {
    for (const draft of drafts) {
      this.state = applyEntryUnchecked(this.state, draft);
      if (draft.kind === 'checkpoint') this.context.clearedSinceCheckpoint = 0;
    }
  }

  /**
   * Stamps an event and delivers it to the active run and to listeners. With a session store,
   * delivery waits until every entry committed before it is stored, so a host that saw an event
   * can rely on what it announces being stored; once a write failed, an event that follows an
   * entry not stored is not delivered at all, except `error`, `run-end` and a failed
   * `compaction-end`, which announce nothing stored (so a host always sees the run, and a
   * compaction it saw start, end).
   */
  emit(input: AgentEventInput): AgentEvent {
    const event = this.stamped(input);
    const sink = this.runSink;
    const journal = this.journal;
    if (!journal) this.deliver(event, sink);
    else if (this.#oneWrite) this.#oneWrite.events.push(() => journal.after(() => this.deliver(event, sink), false));
    else journal.after(() => this.deliver(event, sink), event.type === 'error' || event.type === 'run-end' || (event.type === 'compaction-end' && event.error !== undefined));
    return event;
  }

  /**
   * The event with this agent's ids. Every caller passes a draft made for the call: it is stamped
   * in place (a copy of each event was a measurable share of a turn).
   */
  private stamped(input: AgentEventInput): AgentEvent {
    const event = input as AgentEvent;
    event.sessionId = this.sessionId;
    if (this.agentId !== undefined) event.agentId = this.agentId;
    if (this.parentToolUseId !== undefined) event.parentToolUseId = this.parentToolUseId;
    return event;
  }

  /** Commits and events of {@link inOneWrite} under way: recorded together when it ends. */
  #oneWrite: { drafts: EntryDraft[]; events: Array<() => void> } | undefined;

  /**
   * Runs `change` (synchronous) with every entry it commits recorded in one append, so a crash
   * stores all of them or none (a plan approval: the plan, the mode, the rules, a fresh context),
   * and the events it emits delivered once that append is stored. The state changes at once, as
   * with any commit.
   */
  inOneWrite<T>(change: () => T): T {
    if (this.#oneWrite || !this.journal) return change();
    const group: { drafts: EntryDraft[]; events: Array<() => void> } = { drafts: [], events: [] };
    this.#oneWrite = group;
    try {
      return change();
    } finally {
      this.#oneWrite = undefined;
      if (group.drafts.length > 0) this.journal.record(...group.drafts);
      for (const deliver of group.events) deliver();
    }
  }

  /**
   * Reports a failure of the host's tracer as a non-fatal `error` event, once per run: a tracer
   * that fails on every span would otherwise report on every turn and tool call. The run goes on
   * without that span either way.
   */
  private reportTracerFailure(operation: TracerOperation, error: unknown): void {
    const to = this.runSink ?? this;
    if (this.#tracerFailureReportedTo === to) return;
    this.#tracerFailureReportedTo = to;
    const message = `The tracer passed as createAgent({ tracer }) failed in ${operation}: ${describeThrown(error)}. The run goes on without that span, and further tracer failures of this run are not reported. Fix the tracer (e.g. pass trace.getTracer('my-app') from @opentelemetry/api) or leave the option out.`;
    this.emit({ type: 'error', error: new TracerError(message, { operation, cause: error }), fatal: false });
  }

  private deliver(event: AgentEvent, sink: ((event: AgentEvent) => void) | undefined): void {
    sink?.(event);
    // Listeners are guarded by the Agent (one that throws is reported, the others still run).
    this.emitter.emit(event.type, event);
  }

  /** Resolves once every entry and event so far is stored and delivered. */
  flush(): Promise<void> {
    return this.journal?.flush() ?? Promise.resolve();
  }

  /**
   * Resolves once every entry and event so far is stored and delivered, as {@link flush}.
   * @throws the store's failure as it is (`SessionConflictError` for a stale copy) when a write failed.
   */
  async flushOrThrow(): Promise<void> {
    await this.flush();
    const failure = this.writeFailure;
    if (failure) throw failure;
  }

  /** The store refused or failed a write: nothing more can be recorded. */
  get writeFailure(): Error | undefined {
    return this.journal?.failure;
  }

  /** Appends the model's message (with `continued`, after `pause_turn`, its blocks join the last one). */
  pushAssistant(message: AssistantMessage, messageId: string | undefined, usage: Usage | undefined, stopReason?: StopReason | null): void {
    // Optional fields set only when present (no spread of a conditional object: this runs every turn).
    const entry: EntryDraft & { kind: 'message' } = { kind: 'message', message };
    if (messageId) entry.messageId = messageId;
    if (usage) entry.usage = usage;
    // Recorded so that a reader of the session never runs the refused answer's calls.
    if (stopReason === 'refusal') entry.stopReason = 'refusal';
    const mcpTools = this.mcpToolsOf(message);
    if (mcpTools) entry.mcpTools = mcpTools;
    this.commit(entry);
  }

  /**
   * The MCP tool each call of the model's message names, by `tool_use` id: recorded with the
   * message, so that a call undecided at a crash runs, after a resume, only on what the model
   * (and a host asked about it) saw. Undefined when it calls no MCP tool.
   */
  private mcpToolsOf(message: AssistantMessage): Record<string, McpToolRecord> | undefined {
    let records: Record<string, McpToolRecord> | undefined;
    for (const block of message.content) {
      if (block.type !== 'tool_use') continue;
      const use = block as ToolUseBlock;
      const tool = this.tools.get(use.name);
      const origin = tool === undefined ? undefined : mcpToolOrigin(tool);
      if (origin === undefined) continue;
      records ??= Object.create(null) as Record<string, McpToolRecord>;
      records[use.id] = origin;
    }
    return records;
  }

  /**
   * Appends user content. When the history already ends with a user message (after an
   * interrupted batch, say), the new blocks join it so no two user messages are adjacent.
   */
  appendUserContent(blocks: ContentBlock[]): void {
    if (blocks.length === 0) return;
    this.commit({ kind: 'message', message: { role: 'user', content: blocks } });
  }

  /**
   * Content for the next user message: the queued reminders (a user message consumes them), and
   * for a subagent whose parent changed its mode in force (see {@link modeCeiling}) the reminder of
   * that mode, once per change.
   */
  takeReminders(): TextBlock[] {
    const reminders = this.state.pendingReminders.map((reminder): TextBlock => ({ type: 'text', text: reminder }));
    const ceiling = this.ceilingReminder();
    return ceiling === undefined ? reminders : [...reminders, { type: 'text', text: ceiling }];
  }

  /** The mode in force a subagent was last told of when its parent's ceiling set it (undefined: its own). */
  #ceilingTold: PermissionMode | undefined;

  /**
   * For a subagent: the reminder of the mode in force when its parent's mode (the ceiling) made it
   * differ from what the subagent was last told (a parent switched to plan mode while it runs,
   * or back), else undefined. Its own mode changes queue their own reminders.
   */
  private ceilingReminder(): string | undefined {
    if (!this.modeCeiling) return undefined;
    const effective = this.mode;
    const own = this.capped(this.state.permissionMode);
    if (effective === (this.#ceilingTold ?? own)) return undefined;
    this.#ceilingTold = effective === own ? undefined : effective;
    return modeReminder(effective, { planModeInstructions: this.options.planModeInstructions });
  }

  /** How full the context is: the size the next request would have now. */
  contextUsage(): ContextUsage {
    return this.context.measure(this.context.request(this.system, this.toolDefinitions, this.state));
  }

  /**
   * With spilling on, keeps a result too long for the context aside (a `spill` entry) and returns
   * the preview the model gets instead; otherwise returns the result as it is.
   */
  spillResult(toolName: string, result: ToolResultBlock): ToolResultBlock {
    const settings = this.context.settings.spill;
    if (!settings) return result;
    // A page of a kept output, kept again, would be paged with a page kept again, without end:
    // the agent's own ReadToolOutput answers within the spill limit instead.
    if (isSessionReadToolOutput(this.tools.get(toolName))) return result;
    const { result: sent, spilled } = spillToolResultUnchecked(result, { toolName, ...settings });
    if (spilled) void this.spillStore.save(spilled);
    return sent;
  }

  /** Answers a call of the open batch and announces it (`tool-result`), so the model and the host see the same answer. */
  answerCall(call: BatchCall, given: ToolResultBlock, extra: { output?: unknown; durationMs?: number } = {}): void {
    // The host is told what the model gets: commit would replace lone surrogates anyway.
    const entry = wellFormedEntry({ kind: 'tool-result', toolUseId: call.toolUseId, toolName: call.toolName, result: given });
    const { result } = entry as { result: ToolResultBlock };
    // The Read rules the deny step recorded for a directory search are for this call only: a call
    // answered without reading them (denied, interrupted, a tool that ignores them) drops them
    // with its answer, so they never stay in the session's tool state.
    const recorded = this.tools.get(call.toolName)?.ruleTarget?.reads !== undefined ? READ_RULES_KEY_PREFIX + call.toolUseId : undefined;
    const drafts: EntryDraft[] = recorded !== undefined && Object.hasOwn(this.state.toolState, recorded) ? [entry, { kind: 'tool-state', key: recorded, value: null }] : [entry];
    const event: AgentEventInput & { type: 'tool-result' } = {
      type: 'tool-result',
      toolUseId: call.toolUseId,
      toolName: call.toolName,
      content: result.content as never,
      isError: result.is_error === true,
    };
    if (extra.output !== undefined) event.output = extra.output;
    if (extra.durationMs !== undefined) event.durationMs = extra.durationMs;
    const journal = this.journal;
    const until = journal === undefined ? undefined : this.holdAnswerUntil(journal, call);
    if (journal === undefined || until === undefined) {
      this.commitWellFormed(drafts);
      this.emit(event);
      return;
    }
    const sink = this.runSink;
    const stamped = this.stamped(event);
    journal.hold(drafts, () => this.deliver(stamped, sink), until);
    this.applyDrafts(drafts);
  }

  /**
   * How long the journal holds a call's answer (undefined: not at all). The batch's last answer
   * waits for the message carrying the results, which follows at once and then stores it once
   * instead of twice; an earlier answer given while an append is in flight (it would wait for
   * that append anyway) waits until that append ends, and the message takes it along if the batch
   * completes first. Only while the loop runs a batch ({@link holdBatchEnd}), outside `inOneWrite`.
   */
  private holdAnswerUntil(journal: TranscriptWriter, call: BatchCall): 'message' | 'write-ends' | undefined {
    if (!this.holdBatchEnd || this.#oneWrite !== undefined) return undefined;
    if (completesBatch(this.state.openBatch, call)) return 'message';
    return journal.writingSince !== undefined ? 'write-ends' : undefined;
  }

  /** @throws ConfigurationError for `bypassPermissions` without `allowDangerouslySkipPermissions`. */
  assertBypassAllowed(): void {
    if (!this.options.allowDangerouslySkipPermissions) {
      throw new ConfigurationError(
        'permissionMode "bypassPermissions" runs every tool without asking. It is refused unless you also pass allowDangerouslySkipPermissions: true to createAgent.',
      );
    }
  }

  /**
   * Changes the permission mode (never past {@link modeCap}: a capped change to a mode it already
   * has changes nothing), saving `prePlanMode` on entering plan mode, and queues the mode's reminder.
   */
  setMode(requested: PermissionMode, reason: string): void {
    assertPermissionMode(requested);
    if (requested === 'bypassPermissions') this.assertBypassAllowed();
    const to = this.capped(requested);
    const from = this.mode;
    if (from === to) return;
    const reminder = modeReminder(to, { planModeInstructions: this.options.planModeInstructions });
    this.commit({ kind: 'mode-change', from, to, reason, reminder, ...(to === 'plan' ? { prePlanMode: from } : {}) });
    this.emit({ type: 'mode-change', from, to, reason });
  }

  /** The mode to return to when a plan is approved without an explicit target. */
  modeAfterPlan(): PermissionMode {
    const previous = this.state.prePlanMode ?? 'default';
    if (previous === 'plan') return 'default';
    if (previous === 'auto' && !(this.options.autoMode && (this.options.autoMode.isAvailable?.() ?? true))) return 'default';
    if (previous === 'bypassPermissions' && !this.options.allowDangerouslySkipPermissions) return 'default';
    return previous;
  }

  /** See {@link applyPermissionUpdates}. */
  applyPermissionUpdates(updates: unknown): void {
    applyPermissionUpdates(this, updates);
  }

  /** See {@link applyCheckedPermissionUpdates}. */
  applyCheckedPermissionUpdates(updates: readonly PermissionUpdate[] | undefined): void {
    applyCheckedPermissionUpdates(this, updates);
  }

  /** See {@link checkPermissionUpdates}. */
  checkPermissionUpdates(updates: unknown): PermissionUpdate[] | undefined {
    return checkPermissionUpdates(this, updates);
  }

  /** Counts a change of this agent's own session rules (see {@link rulesRevision}). */
  bumpRulesRevision(): void {
    this.#rulesRevision++;
  }

  /** Replaces the todo list and announces it. */
  setTodos(todos: Todo[]): void {
    const previous = this.state.todos;
    this.commit({ kind: 'todo-update', todos: todos.map((todo) => ({ ...todo })) });
    // The event gets copies: a listener that edits them cannot change the agent's list.
    const copy = (list: readonly Todo[]) => list.map((todo) => ({ ...todo }));
    this.emit({ type: 'todo-update', todos: copy(this.state.todos), previous: copy(previous), changes: diffTodos(previous, this.state.todos) });
  }

  /** See {@link ensurePlanSlug}. */
  ensurePlanSlug(): Promise<string> {
    return ensurePlanSlug(this);
  }

  /** See {@link savePlan}. */
  savePlan(text: string, toolUseId?: string, details?: SavePlanDetails): Promise<{ name: string; text: string }> {
    return savePlan(this, text, toolUseId, details);
  }

  /** See {@link requestFreshContext}. */
  requestFreshContext(plan: { text: string; name?: string }): void {
    requestFreshContext(this, plan);
  }

  /** See {@link startFreshContext}. */
  startFreshContext(carried?: readonly TextBlock[]): void {
    startFreshContext(this, carried);
  }

  /** Every approval waiting for the host, with its path. */
  pendingApprovals(): PendingApproval[] {
    return pendingApprovalsOf(this.state);
  }

  /**
   * Plain JSON of everything a resume needs: the state and its revision (signed with `snapshotKey`).
   * Copied through JSON, not `structuredClone`: the state ends a call's fields by setting them to
   * undefined (see `applyEntry`), which JSON leaves out and a structured clone would keep, and a
   * snapshot holding undefined is refused as not plain JSON when resumed as it is.
   */
  snapshot(): AgentSnapshot {
    const snapshot: AgentSnapshot = { $schemaVersion: SNAPSHOT_SCHEMA_VERSION, revision: this.revision, ...(JSON.parse(JSON.stringify(this.state)) as SessionState) };
    if (this.options.snapshotKey !== undefined) snapshot.$signature = signSnapshot(snapshot as unknown as Record<string, unknown>, signingKey(this.options.snapshotKey));
    return snapshot;
  }
}
