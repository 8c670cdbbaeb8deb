import EventEmitter from 'eventemitter3';
import PQueue from 'p-queue';
import { nanoid } from 'nanoid';
import { ApprovalNotFoundError } from '../errors/approval-not-found-error.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import { RunInProgressError } from '../errors/run-in-progress-error.js';
import { ToolInputError } from '../errors/tool-input-error.js';
import type { AgentEventOf, AgentEventType } from '../events/agent-event.js';
import type { ContentBlock, Message } from '../model/messages.js';
import type { PendingApproval } from '../types/pending-approval.js';
import type { PermissionMode, PermissionRules } from '../types/permission.js';
import { runLoop, type RunInput } from '../loop/run-loop.js';
import { SessionConflictError } from '../errors/session-conflict-error.js';
import { SessionWriteError } from '../errors/session-write-error.js';
import type { SessionState } from '../state/index.js';
import type { Model } from '../model/model.js';
import { prepareOutput } from '../loop/structured-output.js';
import type { InferSchemaOutput, ValueSchema } from '../plan/value-schema.js';
import type { ApprovalDecision } from '../loop/apply-approval-decision.js';
import { runHooks } from '../hooks/run-hooks.js';
import type { Todo } from '../types/todo.js';
import { validateTodos } from '../todos/validate-todos.js';
import type { AgentCore } from '../runtime/agent-core.js';
import { AgentRun } from './agent-run.js';
import { ListenerGuards } from './listener-guards.js';
import type { AgentSnapshot } from '../runtime/snapshot.js';
import { forkState, type ForkOptions } from '../session/fork-state.js';
import { failedBeforeStart } from './failed-before-start.js';
import { validateCloseOptions, validateForkOptions, validateRunOptions } from './validate-run-options.js';
import { attachToolSources } from './agent-tool-sources.js';
import type { McpServerState } from '../types/mcp-server-state.js';

/** Options of `agent.run()`. */
export interface RunOptions<S extends ValueSchema | undefined = ValueSchema | undefined> {
  /** Aborting it interrupts the run, like `agent.interrupt()`. */
  signal?: AbortSignal;
  /**
   * Ask for a typed final answer: a zod schema (3 or 4), a Standard Schema validator or a JSON
   * Schema object. The run's final answer is parsed, validated and returned as `result.output`
   * (typed after the schema). Models with native structured output (`anthropicModel`) are
   * constrained to it; others are shown the schema in the prompt. An invalid answer is sent back
   * with what was wrong, `outputRetries` times, then the run ends with `StructuredOutputError`.
   * @default undefined (no typed output)
   */
  outputSchema?: S;
  /**
   * How many times an invalid final answer is sent back before the run fails.
   * @default 1
   */
  outputRetries?: number;
}

export type { ApprovalDecision };

/** Each agent's core, for the library's own functions that work on an agent (`verifyPlan`); not exported from the package. */
const cores = new WeakMap<object, () => AgentCore>();

/**
 * The core behind an agent (once it is ready).
 * @throws ConfigurationError while it is still loading.
 */
export function coreOfAgent(agent: Agent): AgentCore {
  return cores.get(agent)!();
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
  private readonly guards = new ListenerGuards((error) => this.loadedCore?.emit({ type: 'error', error, fatal: false }));
  private readonly queue: PQueue;
  private readonly model: Model;
  /**
   * Resolves when the agent is ready: at once, or after loading when it resumes a session from a
   * store. `run()` waits for it by itself; read properties after awaiting it.
   */
  readonly ready: Promise<void>;
  private readonly forkSelf: (state: SessionState, forkedFrom: string) => Agent;
  private active: { controller: AbortController; run: AgentRun } | undefined;
  private closed = false;

  /** @internal Use `createAgent`. */
  constructor(init: object, settings: { maxToolConcurrency: number; model: Model }, forkSelf: (state: SessionState, forkedFrom: string) => Agent) {
    // Typed loosely on purpose: the core is internal and stays out of the published declarations.
    const core = init as AgentCore | Promise<AgentCore>;
    cores.set(this, () => this.core);
    this.forkSelf = forkSelf;
    this.queue = new PQueue({ concurrency: settings.maxToolConcurrency });
    this.model = settings.model;
    if (core instanceof Promise) {
      this.ready = core.then((loaded) => {
        loaded.emitter = this.emitter;
        this.loadedCore = loaded;
        for (const message of loaded.loadWarnings) loaded.emit({ type: 'warning', message, source: 'session-store' });
        attachToolSources(loaded);
      });
      // Hosts that never await `ready` see the failure through run() instead of an unhandled rejection.
      this.ready.catch(() => undefined);
    } else {
      core.emitter = this.emitter;
      this.loadedCore = core;
      attachToolSources(core);
      this.ready = Promise.resolve();
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

  /** The agent's todo list (the single source of truth). */
  get todos(): readonly Todo[] {
    return this.core.state.todos;
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
    if (typeof prompt !== 'string' && !Array.isArray(prompt)) {
      throw new ConfigurationError(`agent.run() takes a prompt string or an array of content blocks, got ${prompt === null ? 'null' : typeof prompt}.`);
    }
    if (typeof prompt === 'string' ? prompt.trim() === '' : prompt.length === 0) {
      // The API refuses empty user content, and the history must stay valid.
      throw new ConfigurationError('agent.run() needs a non-empty prompt: a string with text in it, or at least one content block.');
    }
    const output = options.outputSchema !== undefined ? prepareOutput(this.model, options.outputSchema, options.outputRetries) : undefined;
    return this.start({ prompt, ...(output ? { output } : {}) }, options) as AgentRun<S extends ValueSchema ? InferSchemaOutput<S> : unknown>;
  }

  /**
   * Answers a pending approval. Returns a run that executes what was allowed and continues the
   * same turn once the last pending call of the batch is answered (while others still wait, the
   * run ends `awaiting-approval` again).
   * @throws ApprovalNotFoundError for an unknown or already-resolved id.
   * @throws RunInProgressError when a run is active.
   */
  resolveApproval(id: string, decision: ApprovalDecision, options: RunOptions = {}): AgentRun {
    validateRunOptions(options, 'agent.resolveApproval');
    if (this.active) throw new RunInProgressError(this.sessionId);
    this.assertOpen();
    const pending = this.core.pendingApprovals();
    const approval = pending.find((candidate) => candidate.id === id);
    if (!approval) throw new ApprovalNotFoundError(id, pending.map((candidate) => candidate.id));
    if (decision?.behavior !== 'allow' && decision?.behavior !== 'deny') {
      throw new ConfigurationError(`resolveApproval: decision.behavior must be "allow" or "deny", got ${JSON.stringify((decision as { behavior?: unknown })?.behavior)}.`);
    }
    if (decision.behavior === 'deny' && typeof decision.message !== 'string') {
      throw new ConfigurationError('resolveApproval: a denial needs a `message` for the model, e.g. { behavior: "deny", message: "The user declined." }.');
    }
    // Applied inside the run: an edited input goes through the tool's async validateInput first.
    return this.start({ approval: { id, path: approval.path ?? [approval.toolUseId], decision } }, options);
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new ConfigurationError(`Agent session "${this.sessionIdOrUnknown()}" is closed. Create a new agent (resume: agent.snapshot() keeps the conversation) to go on.`);
    }
  }

  private start(input: RunInput, options: RunOptions): AgentRun {
    if (this.active) throw new RunInProgressError(this.sessionIdOrUnknown());
    this.assertOpen();
    const controller = new AbortController();
    const external = options.signal;
    const onExternalAbort = () => controller.abort(external?.reason);
    if (external?.aborted) controller.abort(external.reason);
    else external?.addEventListener('abort', onExternalAbort, { once: true });
    const runId = `run_${nanoid(12)}`;
    const run = new AgentRun(runId, async (push) => {
      try {
        await this.ready;
      } catch (error) {
        this.active = undefined;
        return failedBeforeStart(runId, this.sessionIdOrUnknown(), error);
      }
      const failure = this.core.writeFailure;
      if (failure) {
        // The store refused a write (a stale copy of the session) or failed: nothing more can be recorded.
        this.active = undefined;
        external?.removeEventListener('abort', onExternalAbort);
        return failedBeforeStart(runId, this.sessionIdOrUnknown(), SessionConflictError.isInstance(failure) ? failure : new SessionWriteError(this.core.sessionId, failure));
      }
      this.core.runSink = push;
      try {
        const result = await runLoop(this.core, input, { runId, signal: controller.signal, queue: this.queue, sink: push });
        // Every entry stored and every event delivered before the result resolves.
        await this.core.flush();
        return result;
      } finally {
        this.core.runSink = undefined;
        this.active = undefined;
        external?.removeEventListener('abort', onExternalAbort);
      }
    });
    this.active = { controller, run };
    return run;
  }

  /** Interrupts the active run: streams and tools are aborted, unanswered calls get an `is_error` result. No-op when idle. */
  interrupt(reason?: string): void {
    this.active?.controller.abort(new Error(reason ?? 'interrupted'));
  }

  /**
   * Changes the permission mode (emits `mode-change`; the model is told in the next user message).
   * @throws ConfigurationError for an unknown mode, or `bypassPermissions` without `allowDangerouslySkipPermissions`.
   */
  setPermissionMode(mode: PermissionMode): void {
    this.core.setMode(mode, 'host');
  }

  /**
   * Adds permission rules for the rest of the session (kept in snapshots).
   * @throws ConfigurationError for a malformed rule or one naming no tool of this agent.
   */
  addRules(rules: PermissionRules): void {
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
   */
  setTodos(todos: Todo[]): void {
    const validation = validateTodos({ todos });
    if (!validation.ok) throw new ToolInputError('setTodos', validation.issues);
    this.core.setTodos(validation.todos);
  }

  /** Saves a plan approved outside `ExitPlanMode` (e.g. the plan-phase flow) to the plan store. */
  savePlan(text: string): Promise<{ name: string; text: string }> {
    if (typeof text !== 'string' || text.trim() === '') {
      return Promise.reject(new ConfigurationError('savePlan(text) needs the plan as a non-empty string (use formatPlanAsMarkdown for a structured plan).'));
    }
    return this.core.savePlan(text);
  }

  /**
   * Resolves once everything the agent recorded so far is stored (with a `store`; at once
   * without). Changes made between runs — `setPermissionMode`, `addRules`, `setTodos` — are
   * written in the background; await this before telling a user they are saved.
   * @throws the store's error when a write failed (`SessionConflictError` for a stale copy).
   */
  async flush(): Promise<void> {
    await this.ready;
    await this.core.flush();
    const failure = this.core.writeFailure;
    if (failure) throw failure;
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
   */
  async fork(options: ForkOptions = {}): Promise<Agent> {
    validateForkOptions(options);
    if (this.active) throw new RunInProgressError(this.sessionId);
    await this.core.flush();
    const { state, plan } = forkState(this.core.state, options, this.core.options.planModeInstructions);
    const fork = this.forkSelf(state, this.core.sessionId);
    // A fork with tool sources connects its own MCP servers first.
    await fork.ready;
    if (plan) await fork.core.savePlan(plan.text);
    await fork.core.flush();
    if (fork.core.writeFailure) throw fork.core.writeFailure;
    return fork;
  }

  /**
   * Ends the session: interrupts an active run, runs the `SessionEnd` hooks, closes the MCP
   * connections (stdio servers' processes end), and releases what the session store holds for it
   * (the file store's handle and lock). The agent accepts no more runs; its snapshot stays available.
   */
  async close(options: { reason?: string } = {}): Promise<void> {
    validateCloseOptions(options);
    if (this.closed) return;
    this.closed = true;
    // Still loading (connecting MCP servers, say): close what the load opens, once it has.
    if (!this.loadedCore) await this.ready.catch(() => undefined);
    if (!this.loadedCore) return;
    this.loadedCore.closed = true;
    for (const controller of this.loadedCore.backgroundAborts) controller.abort(new Error('closed'));
    const active = this.active;
    if (active) {
      active.controller.abort(new Error('closed'));
      await active.run.result;
    }
    const ended = await runHooks({
      event: 'SessionEnd',
      hooks: this.core.options.hooks,
      signal: new AbortController().signal,
      input: { sessionId: this.sessionId, reason: options.reason ?? 'closed' },
    });
    for (const error of ended.errors) this.core.emit({ type: 'error', error, fatal: false });
    await this.core.toolSources?.close();
    await this.core.flush();
    // Release what the store holds for this session (a file handle and lock, for the file store).
    await this.core.options.store?.close?.(this.sessionId);
  }

  /**
   * Listens to events of one type (every run of this agent). A listener that throws does not
   * stop the others or the run: its error is reported as a non-fatal `error` event.
   */
  on<T extends AgentEventType>(type: T, listener: (event: AgentEventOf<T>) => void): this {
    this.emitter.on(type, this.guards.wrap(type, listener));
    return this;
  }

  /** Removes a listener added with `on` or `once`. */
  off<T extends AgentEventType>(type: T, listener: (event: AgentEventOf<T>) => void): this {
    this.emitter.off(type, this.guards.unwrap(type, listener));
    return this;
  }

  /** Listens to the next event of one type. */
  once<T extends AgentEventType>(type: T, listener: (event: AgentEventOf<T>) => void): this {
    this.emitter.once(type, this.guards.wrap(type, listener));
    return this;
  }
}
