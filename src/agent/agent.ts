import { warnLargeToolList } from './warn-large-tool-list.js';
import EventEmitter from 'eventemitter3';
import { randomId } from '../ids/random-id.js';
import { ToolQueue } from '../loop/tool-queue.js';
import { ApprovalNotFoundError } from '../errors/approval-not-found-error.js';
import { checkPrompt } from './check-prompt.js';
import { checkApprovalDecision } from '../loop/check-approval-decision.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import { RunInProgressError } from '../errors/run-in-progress-error.js';
import { ToolInputError } from '../errors/tool-input-error.js';
import type { AgentEventOf, AgentEventType } from '../events/agent-event.js';
import type { ContentBlock, Message } from '../model/messages.js';
import type { PendingApproval } from '../types/pending-approval.js';
import type { PermissionMode, PermissionRules } from '../types/permission.js';
import { runLoop, type RunInput } from '../loop/run-loop.js';
import { flushWriteError, writeError } from '../loop/write-error.js';
import type { SessionState } from '../state/index.js';
import type { Model } from '../model/model.js';
import { prepareOutput, type OutputRequest } from '../loop/structured-output.js';
import type { InferSchemaOutput, ValueSchema } from '../plan/value-schema.js';
import type { ApprovalDecision } from '../loop/apply-approval-decision.js';
import type { Todo } from '../types/todo.js';
import { validateTodos } from '../todos/validate-todos.js';
import type { AgentCore } from '../runtime/agent-core.js';
import { AgentRun } from './agent-run.js';
import { ListenerGuards } from './listener-guards.js';
import { checkEventType } from './check-event-type.js';
import type { AgentSnapshot } from '../runtime/snapshot.js';
import { forkState, type ForkOptions } from '../session/fork-state.js';
import { failedBeforeStart, interruptedBeforeStart } from './failed-before-start.js';
import type { RunResult } from '../events/run-result.js';
import { onAbort } from '../loop/on-abort.js';
import { RunAbort } from '../loop/run-abort.js';
import { boundCoreWrites } from './bound-core-writes.js';
import { closeLoadedCore } from './close-loaded-core.js';
import { endRunByThrow } from './end-run-by-throw.js';
import { validateCloseOptions, validateCompactOptions, validateForkOptions, validateRunOptions } from './validate-run-options.js';
import { validateRulesArgument } from './validate-agent-options.js';
import type { CompactionResult } from '../loop/compact-history.js';
import { runCompaction } from '../loop/run-compaction.js';
import type { ContextUsage } from '../types/context-usage.js';
import { attachToolSources } from './agent-tool-sources.js';
import { rewindFiles, type RewindFilesOptions, type RewindFilesResult } from '../runtime/rewind-files.js';
import type { McpServerState } from '../types/mcp-server-state.js';
import type { RunOptions } from './run-options.js';
import type { CompactOptions } from './compact-options.js';
import type { CloseOptions } from './close-options.js';

export type { ApprovalDecision };

/**
 * Reads an agent's core; set by `Agent`'s static block. Not a `WeakMap<Agent, () => core>`: an
 * entry whose value refers back to its key keeps the agent alive through every young-generation
 * GC (V8's scavenger treats such ephemerons as strong), so each agent and all its runs' garbage
 * would be promoted to the old generation and wait for a full mark-compact.
 */
let readCore: (agent: Agent) => AgentCore;

/**
 * The core behind an agent (once it is ready), for the library's own functions that work on an
 * agent (`verifyPlan`); not exported from the package.
 * @throws ConfigurationError while it is still loading.
 */
export function coreOfAgent(agent: Agent): AgentCore {
  return readCore(agent);
}

let runBeside: <T>(agent: Agent, signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/**
 * Runs work of the library's own on an agent's session beside its runs (`verifyPlan`), under a
 * signal that `signal`, `agent.interrupt()` and `agent.close()` abort; `close()` waits for it to
 * end, so nothing of it runs after `close()` resolves. Not exported from the package.
 * @throws ConfigurationError when the agent is closed.
 */
export function workBesideAgent<T>(agent: Agent, signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return runBeside(agent, signal, work);
}

/**
 * One conversation (session) with a model: its history, permission mode, todos, plan and
 * pending approvals. Create it with `createAgent`.
 */
export class Agent {
  private loadedCore: AgentCore | undefined;
  /** Owned here, not by the core, so listeners can be added while a session is still loading. */
  private readonly emitter = new EventEmitter();
  /** Wraps listeners so one that throws is reported (as a non-fatal `error` event) and the others still run. */
  private listenerGuards: ListenerGuards | undefined;
  /** Made with the first listener: most agents of a server never get one. */
  private get guards(): ListenerGuards {
    return (this.listenerGuards ??= new ListenerGuards((error) => this.loadedCore?.emit({ type: 'error', error, fatal: false })));
  }
  /** Made at the first run: an idle agent (resumed, never run) does not hold one. */
  private toolQueue: ToolQueue | undefined;
  private readonly maxToolConcurrency: number;
  private readonly model: Model;
  /**
   * Resolves when the agent is ready: at once, or after loading when it resumes a session from a
   * store. `run()` waits for it by itself; read properties after awaiting it.
   */
  readonly ready: Promise<void>;
  private readonly forkSelf: (state: SessionState, forkedFrom: string) => Agent;
  private active: { abort: RunAbort; run: AgentRun } | undefined;
  /** The typed output a run that ended `awaiting-approval` was asked for, for the run that resolves it. */
  private parkedOutput: OutputRequest | undefined;
  private closed = false;
  /** The agent's closing, shared by every `close()` call. */
  private closing: Promise<void> | undefined;
  /** Stops the tool sources connecting (close() while MCP servers connect), when they do. */
  private readonly stopLoading: (() => void) | undefined;
  /** `ready` has resolved: a run starts without waiting on it. */
  private isReady = false;
  /** Set while `compact()` or `rewindFiles()` works on the session: no run, compaction or rewind may start meanwhile. */
  private exclusive: 'compact' | 'rewind' | undefined;
  /**
   * Work on the session other than a run (`compact()`, `rewindFiles()`, `verifyPlan`):
   * `interrupt()` and `close()` abort it, and `close()` waits for it.
   */
  private aside: Set<{ controller: AbortController; done: Promise<unknown> }> | undefined;

  static {
    readCore = (agent) => agent.core;
    runBeside = (agent, signal, work) => agent.runAside(signal, work);
  }

  /**
   * Runs `work` on the session beside (or instead of) a run, under a signal that `outer`,
   * `interrupt()` and `close()` abort; `close()` waits for it to end.
   */
  private async runAside<T>(outer: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.assertOpen();
    const controller = new AbortController();
    // Linked before the work starts: a signal aborted already aborts it at once.
    const unlink = outer ? onAbort(outer, () => controller.abort(outer.reason)) : undefined;
    const done = work(controller.signal);
    const entry = { controller, done };
    (this.aside ??= new Set()).add(entry);
    try {
      return await done;
    } finally {
      this.aside.delete(entry);
      unlink?.();
    }
  }

  /** @internal Use `createAgent`. */
  constructor(init: object, settings: { maxToolConcurrency: number; model: Model; stopLoading?: () => void }, forkSelf: (state: SessionState, forkedFrom: string) => Agent) {
    // Typed loosely on purpose: the core is internal and stays out of the published declarations.
    const core = init as AgentCore | Promise<AgentCore>;
    this.forkSelf = forkSelf;
    this.maxToolConcurrency = settings.maxToolConcurrency;
    this.model = settings.model;
    this.stopLoading = settings.stopLoading;
    if (core instanceof Promise) {
      this.ready = core.then((loaded) => {
        loaded.emitter = this.emitter;
        this.loadedCore = loaded;
        for (const message of loaded.loadWarnings) loaded.emit({ type: 'warning', message, source: 'session-store' });
        attachToolSources(loaded);
        warnLargeToolList(loaded);
        this.isReady = true;
      });
      // Hosts that never await `ready` see the failure through run() instead of an unhandled rejection.
      this.ready.catch(() => undefined);
    } else {
      core.emitter = this.emitter;
      this.loadedCore = core;
      attachToolSources(core);
      this.isReady = true;
      this.ready = Promise.resolve();
      // After the host's listeners: createAgent returned and they were attached meanwhile.
      queueMicrotask(() => warnLargeToolList(core));
    }
  }

  private get core(): AgentCore {
    if (!this.loadedCore) {
      throw new ConfigurationError('This agent is still loading its session from the store; `await agent.ready` before reading its state or resolving approvals.');
    }
    return this.loadedCore;
  }

  /** The session id. */
  get sessionId(): string {
    return this.core.sessionId;
  }

  private sessionIdOrUnknown(): string {
    return this.loadedCore?.sessionId ?? 'unknown';
  }

  /** Set for subagents. */
  get agentId(): string | undefined {
    return this.core.agentId;
  }

  /** The current permission mode. */
  get permissionMode(): PermissionMode {
    return this.core.mode;
  }

  /** The conversation in Anthropic wire shape. Read-only: do not mutate. */
  get messages(): readonly Message[] {
    return this.core.state.messages;
  }

  /**
   * The agent's todo list (the single source of truth), as copies: editing them changes nothing;
   * change the list with `setTodos` (recorded and announced with `todo-update`).
   */
  get todos(): readonly Todo[] {
    return this.core.state.todos.map((todo) => ({ ...todo }));
  }

  /** The approved plan and its file name, or undefined. */
  get plan(): { readonly name: string; readonly text: string } | undefined {
    return this.core.plan;
  }

  /**
   * Tool calls waiting for the host's answer: the agent's own, and those inside subagent runs its
   * calls wait on, each with its `path`.
   */
  get pendingApprovals(): readonly PendingApproval[] {
    return this.core.pendingApprovals();
  }

  /**
   * The MCP servers and their states (`connected`, `reconnecting`, `failed`, `needs-auth`, ...),
   * with the tools each offers. Empty while the agent is loading (`await agent.ready`).
   */
  get mcpServers(): readonly McpServerState[] {
    return this.loadedCore?.toolSources?.mcpStates() ?? [];
  }

  /**
   * How full the context is: the tokens the next request would take (calibrated against the usage
   * the API last reported, or counted exactly when the model counts), the window and the fraction.
   * Also announced after every turn as a `context-usage` event.
   */
  get contextUsage(): ContextUsage {
    return this.core.contextUsage();
  }

  /**
   * Compacts the history now: the model writes a structured handoff summary of the conversation,
   * which replaces it (the most recent messages are kept verbatim, cut where no tool call is
   * open); the user's latest message, when summarized, is restated verbatim after the summary;
   * the plan, todos, permission mode, pending approvals and session rules are restated from the
   * agent's own records. `PreCompact` hooks may add instructions; the store keeps the
   * full history, and resume starts from this compaction. Like a run, it stops on `interrupt()`,
   * `close()` or its `signal`: the summary call is aborted, the history stays as it was, and the
   * promise resolves with `{ compacted: false, skipped: 'interrupted' }` (the `compaction-end`
   * event, when the summary call had started, carries a `CompactionError` saying so).
   * @throws RunInProgressError while a run is active.
   * @throws CompactionError when the model could not write the summary (the history is unchanged).
   */
  async compact(options: CompactOptions = {}): Promise<CompactionResult> {
    validateCompactOptions(options);
    if (this.busy) throw new RunInProgressError(this.sessionIdOrUnknown());
    this.assertOpen();
    this.exclusive = 'compact';
    try {
      return await this.runAside(options.signal, (signal) => this.compactNow(options, signal));
    } finally {
      this.exclusive = undefined;
    }
  }

  private async compactNow(options: CompactOptions, signal: AbortSignal): Promise<CompactionResult> {
    await this.ready;
    const result = await runCompaction(this.core, { trigger: 'manual', signal, ...(options.instructions !== undefined ? { instructions: options.instructions } : {}) });
    await this.flush();
    return result;
  }

  /** True while a run is active. */
  get running(): boolean {
    return this.active !== undefined;
  }

  /**
   * Sends a prompt and runs the loop until the model is done, approvals are needed, or a stop
   * condition. Pending approvals left unanswered are superseded by the new prompt (denied).
   * @throws RunInProgressError when a run is already active.
   */
  run<S extends ValueSchema | undefined = undefined>(
    prompt: string | ContentBlock[],
    options: RunOptions<S> = {},
  ): AgentRun<S extends ValueSchema ? InferSchemaOutput<S> : unknown> {
    validateRunOptions(options, 'agent.run');
    // The API refuses empty user content and blocks a user cannot send; the history must stay valid.
    checkPrompt(prompt, 'agent.run()');
    const output = options.outputSchema !== undefined ? prepareOutput(this.model, options.outputSchema, options.outputRetries, options.outputMode) : undefined;
    return this.start({ prompt, ...(output ? { output } : {}) }, options) as AgentRun<S extends ValueSchema ? InferSchemaOutput<S> : unknown>;
  }

  /**
   * Answers a pending approval. Returns a run that executes what was allowed and continues the
   * same turn once the last pending call of the batch is answered (while others still wait, the
   * run ends `awaiting-approval` again). A run asked for a typed answer (`outputSchema`) that
   * parked on this approval keeps asking for it; an agent resumed in another process passes
   * `outputSchema` here again (a schema is code, not part of the snapshot). An allow for a tool of
   * an MCP server that is not connected now ends the run with an `McpConnectionError` and
   * nothing else: the approval stays pending, to be answered once the server is back.
   * @throws ApprovalNotFoundError for an unknown or already-resolved id.
   * @throws ConfigurationError for a malformed decision (its behavior, a denial without a message,
   * a flag that is not a boolean, an `updatedInput` that is not an object): the approval stays pending.
   * @throws RunInProgressError when a run is active.
   */
  resolveApproval(id: string, decision: ApprovalDecision, options: RunOptions = {}): AgentRun {
    validateRunOptions(options, 'agent.resolveApproval');
    if (this.active) throw new RunInProgressError(this.sessionId);
    this.assertOpen();
    const pending = this.core.pendingApprovals();
    const approval = pending.find((candidate) => candidate.id === id);
    if (!approval) {
      const asked = pending.find((candidate) => candidate.toolUseId === id);
      throw new ApprovalNotFoundError(id, pending.map((candidate) => candidate.id), asked ? { approvalOfCall: asked.id } : {});
    }
    checkApprovalDecision(decision, 'resolveApproval');
    // Refused now, with the approval still pending, rather than inside the run once it is used up.
    // Also for a subagent's call: a rule there may name a tool of the subagent or of an agent above
    // it, and a subagent's tools are a subset of its parent's, so this agent's tools are those.
    if (decision.behavior === 'allow') this.core.checkPermissionUpdates(decision.updatedPermissions);
    // Applied inside the run: an edited input goes through the tool's async validateInput first.
    // The typed answer a parked run was asked for carries over (in this process); another process passes `outputSchema` again.
    const output = options.outputSchema !== undefined ? prepareOutput(this.model, options.outputSchema, options.outputRetries, options.outputMode) : this.parkedOutput;
    return this.start({ approval: { id, path: approval.path ?? [approval.toolUseId], decision }, ...(output ? { output } : {}) }, options);
  }

  /**
   * Carries on where the session stopped, with no new prompt: after a process died mid-run (its
   * session resumed from the store), the calls of the open batch are decided and run and the
   * model is called for the answer it owes. A session with nothing unfinished ends at once:
   * `awaiting-approval` while approvals wait (answer them with `resolveApproval`), else `completed`
   * without calling the model. Tools that may have been running when the process died are not run
   * again: the resume answered them as interrupted — except, in a session resumed from its store,
   * an approved `ExitPlanMode`, which is safe to repeat and runs again (here, or before the next
   * prompt), so the approval is kept. With `outputSchema`, a `StructuredOutput` answer the model
   * gave before the process died is taken (checked like a fresh one), not asked for again.
   * @throws RunInProgressError when a run is active.
   */
  continue(options: RunOptions = {}): AgentRun {
    validateRunOptions(options, 'agent.continue');
    const output = options.outputSchema !== undefined ? prepareOutput(this.model, options.outputSchema, options.outputRetries, options.outputMode) : undefined;
    return this.start({ ...(output ? { output } : {}) }, options);
  }

  /** A run, a compaction or a rewind is under way. */
  private get busy(): boolean {
    return this.active !== undefined || this.exclusive !== undefined;
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new ConfigurationError(`Agent session "${this.sessionIdOrUnknown()}" is closed. Create a new agent (resume: agent.snapshot() keeps the conversation) to go on.`);
    }
  }

  private start(input: RunInput, options: RunOptions): AgentRun {
    if (this.busy) throw new RunInProgressError(this.sessionIdOrUnknown());
    this.assertOpen();
    // The run's AbortSignal is made only when something is handed it (see RunAbort).
    const abort = new RunAbort(this.maxToolConcurrency);
    const external = options.signal;
    const onExternalAbort = () => abort.abort(external?.reason);
    if (external?.aborted) abort.abort(external.reason);
    else external?.addEventListener('abort', onExternalAbort, { once: true });
    const runId = options.runId ?? `run_${randomId(12)}`;
    const run = new AgentRun(runId, async (push) => {
      try {
        // An interrupt while the session loads or its MCP servers connect ends the run at once.
        // (A ready agent still awaits: the loop starts a microtask after run(), once the host's listeners are on.)
        // `race` waits on a flag the abort reads, not on the run's signal (which it would make).
        if (this.isReady) await this.ready;
        else {
          try {
            await abort.race(this.ready);
          } catch (error) {
            if (!abort.aborted) throw error;
            this.active = undefined;
            external?.removeEventListener('abort', onExternalAbort);
            return interruptedBeforeStart(runId, this.sessionIdOrUnknown());
          }
        }
      } catch (error) {
        this.active = undefined;
        external?.removeEventListener('abort', onExternalAbort);
        return failedBeforeStart(runId, this.sessionIdOrUnknown(), error);
      }
      const failure = this.core.writeFailure;
      if (failure) {
        // The store refused a write (a stale copy of the session) or failed: nothing more can be recorded.
        this.active = undefined;
        external?.removeEventListener('abort', onExternalAbort);
        return failedBeforeStart(runId, this.sessionIdOrUnknown(), writeError(this.core, failure));
      }
      this.core.runSink = push;
      // Interrupted, the run waits on a store that stopped answering only so long.
      let stopBounding: (() => void) | undefined;
      // (A listener on the run's flag, not its signal: a run with a store makes no signal for it.)
      const unbound = this.core.journal ? abort.whenAborted(() => (stopBounding = boundCoreWrites(this.core, 'the run was interrupted'))) : undefined;
      try {
        let result: RunResult;
        try {
          result = await runLoop(this.core, input, { runId, abort, queue: (this.toolQueue ??= new ToolQueue(this.maxToolConcurrency)), sink: push });
        } catch (error) {
          // The loop ends its own failures as `error`; a throw past it is a bug, and still ends the run as one.
          result = endRunByThrow(this.core, runId, error);
        }
        this.parkedOutput = result.status === 'awaiting-approval' ? input.output : undefined;
        // Every entry stored before the result resolves (events are delivered as they happen).
        if (this.core.journal) await this.core.flush();
        return result;
      } finally {
        unbound?.();
        stopBounding?.();
        this.core.runSink = undefined;
        this.active = undefined;
        external?.removeEventListener('abort', onExternalAbort);
      }
    }, (error) => failedBeforeStart(runId, this.sessionIdOrUnknown(), error), options.bufferEvents ?? true);
    this.active = { abort, run };
    return run;
  }

  /**
   * Interrupts the active run: streams and tools are aborted, unanswered calls get an `is_error`
   * result. Also stops a `compact()` under way (its summary call is aborted, the history stays as
   * it was) and a `rewindFiles()` under way (after the file it is putting back). No-op when idle.
   */
  interrupt(reason?: string): void {
    this.active?.abort.abort(new Error(reason ?? 'interrupted'));
    for (const work of this.aside ?? []) work.controller.abort(new Error(reason ?? 'interrupted'));
  }

  /**
   * Changes the permission mode (emits `mode-change`; the model is told in the next user message).
   * @throws ConfigurationError for an unknown mode, or `bypassPermissions` without `allowDangerouslySkipPermissions`; when the agent is closed.
   */
  setPermissionMode(mode: PermissionMode): void {
    this.assertOpen();
    this.core.setMode(mode, 'host');
  }

  /**
   * Adds permission rules for the rest of the session (kept in snapshots).
   * @throws ConfigurationError for a malformed rule or one naming no tool of this agent, or an argument that is not `{ allow?, deny?, ask? }` rule lists; when the agent is closed.
   */
  addRules(rules: PermissionRules): void {
    this.assertOpen();
    validateRulesArgument(rules, 'agent.addRules');
    this.core.assertRulesNameTools(rules);
    this.core.applyPermissionUpdates(
      (['allow', 'deny', 'ask'] as const)
        .filter((behavior) => rules[behavior]?.length)
        .map((behavior) => ({ type: 'addRules' as const, behavior, rules: rules[behavior]!, destination: 'session' as const })),
    );
  }

  /**
   * Replaces the todo list (e.g. seeded from a plan with `planToTodos`); emits `todo-update`.
   * @throws ToolInputError naming the bad field when the list is invalid.
   * @throws ConfigurationError when the agent is closed.
   */
  setTodos(todos: Todo[]): void {
    this.assertOpen();
    const validation = validateTodos({ todos });
    if (!validation.ok) throw new ToolInputError('setTodos', validation.issues);
    this.core.setTodos(validation.todos);
  }

  /**
   * Saves a plan approved outside `ExitPlanMode` (e.g. the plan-phase flow) to the plan store, and
   * resolves once the session store has recorded it too.
   * @throws SessionWriteError (rejects) when the session store failed to record it (a resume would
   * not know the plan); `SessionConflictError` or `LeaseLostError` when this agent is a stale writer;
   * `ConfigurationError` when the agent is closed.
   */
  async savePlan(text: string): Promise<{ name: string; text: string }> {
    this.assertOpen();
    if (typeof text !== 'string' || text.trim() === '') {
      throw new ConfigurationError('savePlan(text) needs the plan as a non-empty string (use formatPlanAsMarkdown for a structured plan).');
    }
    const saved = await this.core.savePlan(text);
    // Resolved only once recorded: a host that saw it resolve can rely on a resume finding the plan.
    const failure = await flushWriteError(this.core);
    if (failure) throw failure;
    return saved;
  }

  /**
   * Puts the files that tool calls changed back as they were at an earlier point of the
   * conversation: every change made by a call in `agent.messages[toMessage]` or later is undone
   * (a "undo that section" or "undo the last edit"). Works for tools that keep checkpoints — the
   * workspace tools' Write and Edit do, in the session (bounded, see `workspaceTools({
   * checkpoints })`), so a rewind also works after a resume in another process. The conversation
   * itself is not cut; the model is told in the next user message which files were put back.
   * Its `signal`, `interrupt()` and `close()` stop it between files (the file under way is
   * finished; `close()` waits for it): the files not reached are in `skipped`, `interrupted` is
   * true, and a later rewind can still put them back.
   * @returns the files put back and those that could not be (with the reason).
   * @throws RunInProgressError while a run is active; ConfigurationError for a bad `toMessage`
   * or option.
   */
  async rewindFiles(options: RewindFilesOptions): Promise<RewindFilesResult> {
    await this.ready;
    if (this.busy) throw new RunInProgressError(this.sessionId);
    this.assertOpen();
    this.exclusive = 'rewind';
    try {
      // Its own `signal` is checked by rewindFiles, after the options are (it may not be one).
      return await this.runAside(undefined, (signal) => this.rewindNow(options, signal));
    } finally {
      this.exclusive = undefined;
    }
  }

  private async rewindNow(options: RewindFilesOptions, stop: AbortSignal): Promise<RewindFilesResult> {
    const result = await rewindFiles(this.core, options, stop);
    await this.flush();
    return result;
  }

  /**
   * Resolves once everything the agent recorded so far is stored (with a `store`; at once
   * without). Changes made between runs — `setPermissionMode`, `addRules`, `setTodos` — are
   * written in the background; await this before telling a user they are saved.
   * @throws the store's error when a write failed (`SessionConflictError` for a stale copy).
   */
  async flush(): Promise<void> {
    await this.ready;
    await this.core.flushOrThrow();
  }

  /** Plain JSON holding everything needed to continue this session in any process. */
  snapshot(): AgentSnapshot {
    return this.core.snapshot();
  }

  /**
   * A new session with a copy of this one's history (all of it, or the first `upTo` messages),
   * todos, rules and tool state, and its own copy of the plan under a new name. With a store,
   * the fork's transcript is written under its new id. The two never affect each other.
   * @throws RunInProgressError while a run is active.
   * @throws ConfigurationError (rejects) when the agent is closed (`snapshot()` still works: resume it).
   */
  async fork(options: ForkOptions = {}): Promise<Agent> {
    validateForkOptions(options);
    this.assertOpen();
    if (this.active) throw new RunInProgressError(this.sessionId);
    await this.core.flush();
    const { state, plan } = forkState(this.core.state, options, this.core.options.planModeInstructions);
    const fork = this.forkSelf(state, this.core.sessionId);
    try {
      // A fork with tool sources connects its own MCP servers first.
      await fork.ready;
      if (plan) await fork.core.savePlan(plan.text);
      await fork.core.flushOrThrow();
    } catch (error) {
      // A fork that failed (its id taken by a stored session, a store that refused it) is closed,
      // so it does not hold the session id: resuming that session in this process still works.
      await fork.close().catch(() => undefined);
      throw error;
    }
    return fork;
  }

  /**
   * Ends the session: interrupts an active run (or `compact()`, or `rewindFiles()` after the
   * file it is putting back) and every background subagent task of the agent's tree (those its
   * subagents started too, at any depth) and waits for them to stop (each is recorded as
   * `interrupted`, with its `background-task-end` event) and for subagents of an earlier,
   * interrupted run still ending (their `SubagentStop` hooks' signal aborts), runs the
   * `SessionEnd` hooks (stopped when `options.signal` aborts), closes the MCP connections (stdio
   * servers' processes end), and releases what the session store holds for it (the file store's
   * handle and lock). Once it resolves, no model call, hook or store write of the agent or its
   * subagents follows, nor a write of a plan the interrupted run was saving (waited for up to
   * `storeWriteGraceMs`); a tool that ignores its abort signal is no longer waited on. The agent
   * accepts no more runs; its snapshot stays available. A second call while the first is still
   * closing resolves with it, not before (its options are not applied: the first call's are).
   */
  async close(options: CloseOptions = {}): Promise<void> {
    validateCloseOptions(options);
    this.closing ??= this.closeOnce(options);
    return this.closing;
  }

  /** What `close()` does, once. */
  private async closeOnce(options: CloseOptions): Promise<void> {
    this.closed = true;
    // A compaction, a rewind (after the file it is putting back) or a plan verification under way
    // stops too, and is waited for below, once loaded: it writes nothing after this resolves.
    const aside = [...(this.aside ?? [])];
    for (const work of aside) work.controller.abort(new Error('closed'));
    // Still loading (connecting MCP servers, say): stop the connecting, and close what the load
    // opened once it has settled.
    if (!this.loadedCore) {
      this.stopLoading?.();
      await this.ready.catch(() => undefined);
    }
    if (!this.loadedCore) return;
    await closeLoadedCore(this.loadedCore, { active: this.active, aside, options });
  }

  /**
   * Listens to events of one type (every run of this agent). A listener that throws (or, async,
   * rejects) does not stop the others or the run: its error is reported as a non-fatal `error` event.
   * @throws ConfigurationError when `type` is no agent event's type (`'tool_call'` for `'tool-call'`:
   *   the message names the likely one), or `listener` is not a function.
   */
  on<T extends AgentEventType>(type: T, listener: (event: AgentEventOf<T>) => void): this {
    checkEventType('on', type, listener);
    this.emitter.on(type, this.guards.wrap(type, listener));
    return this;
  }

  /**
   * Removes a listener added with `on` or `once`: one registration of it, the latest (a listener added twice needs two calls).
   * @throws ConfigurationError as `on` does.
   */
  off<T extends AgentEventType>(type: T, listener: (event: AgentEventOf<T>) => void): this {
    checkEventType('off', type, listener);
    this.emitter.off(type, this.guards.unwrap(type, listener));
    return this;
  }

  /**
   * Listens to the next event of one type.
   * @throws ConfigurationError as `on` does.
   */
  once<T extends AgentEventType>(type: T, listener: (event: AgentEventOf<T>) => void): this {
    checkEventType('once', type, listener);
    this.emitter.once(type, this.guards.wrap(type, listener, true));
    return this;
  }
}
