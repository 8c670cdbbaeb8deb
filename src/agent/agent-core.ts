import EventEmitter from 'eventemitter3';
import { ConfigurationError } from '../errors/configuration-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { AssistantMessage, ContentBlock, Message, TextBlock } from '../model/messages.js';
import type { ToolDefinition } from '../model/model.js';
import type { PermissionMode, PermissionRules, PermissionUpdate } from '../permissions/types.js';
import { assertPermissionMode } from '../permissions/assert-permission-mode.js';
import { modeReminder } from '../permissions/mode-reminder.js';
import { createRuleSet, type RuleSet } from '../permissions/rule-set.js';
import { assertRulesNameTools } from '../permissions/assert-rules-name-tools.js';
import type { OpenBatch } from '../loop/open-batch.js';
import { DEFAULT_PRICES, findPrice, type ModelPrice } from '../loop/pricing.js';
import type { Todo } from '../todos/types.js';
import { diffTodos } from '../todos/diff-todos.js';
import type { Tool, ToolAgentContext, ToolStateStore } from '../tools/types.js';
import { allocatePlanSlug } from '../plan/allocate-plan-slug.js';
import { planFileName } from '../plan/plan-name.js';
import { memoryPlanStore } from '../plan/memory-plan-store.js';
import type { PlanStore } from '../plan/plan-store.js';
import type { AgentOptions } from './agent-options.js';
import { SNAPSHOT_SCHEMA_VERSION, type AgentSnapshot } from './snapshot.js';
import type { EntryDraft, Journal } from '../session/journal.js';
import { entryForEvent } from '../session/entry-for-event.js';
import { INTERRUPTED_BEFORE_FINISHING } from '../session/entries-to-snapshot.js';

/** An event before the agent stamps it with its session and agent ids. */
export type AgentEventInput = AgentEvent extends infer E ? (E extends AgentEvent ? Omit<E, 'sessionId' | 'agentId'> : never) : never;

/**
 * The session state and the services the loop and built-in tools share. Internal: hosts use the
 * `Agent` facade.
 */
export class AgentCore {
  readonly sessionId: string;
  readonly agentId: string | undefined;
  readonly options: AgentOptions;
  /** Listeners; the `Agent` that wraps this core hands over its own emitter (see `Agent`). */
  emitter = new EventEmitter();
  readonly tools: ReadonlyMap<string, Tool>;
  /** Tool definitions in the fixed order sent on every turn. */
  readonly toolDefinitions: ToolDefinition[];
  readonly system: TextBlock[];
  readonly rules: RuleSet;
  readonly planStore: PlanStore;
  readonly price: ModelPrice | undefined;

  messages: Message[];
  mode: PermissionMode;
  prePlanMode: PermissionMode | undefined;
  todos: Todo[];
  planSlug: string | undefined;
  plan: { name: string; text: string } | undefined;
  sessionRules: Required<PermissionRules>;
  pendingReminders: string[];
  openBatch: OpenBatch | undefined;
  toolStateData: Record<string, unknown>;
  readonly toolContext: ToolAgentContext;
  /** How this agent object came to be, for the `SessionStart` hook; cleared once it has fired. */
  sessionStartSource: 'startup' | 'resume' | 'fork' | undefined;
  /** Receives events of the active run (set by the run). */
  runSink: ((event: AgentEvent) => void) | undefined;
  /** Set by `agent.close()`: the session's store hold is released. */
  closed = false;
  /** What the store skipped while loading this session, announced once listeners are attached. */
  loadWarnings: string[] = [];
  /** Writes the transcript when the host gave a session store. */
  readonly journal: Journal | undefined;

  constructor(
    options: AgentOptions,
    tools: Tool[],
    sessionId: string,
    snapshot: AgentSnapshot | undefined,
    origin: 'startup' | 'resume' | 'fork',
    journal?: Journal,
  ) {
    this.options = options;
    this.journal = journal;
    this.sessionStartSource = origin;
    this.sessionId = sessionId;
    this.agentId = snapshot?.agentId ?? options.agentId;
    const byName = new Map<string, Tool>();
    for (const tool of tools) {
      if (byName.has(tool.name)) {
        throw new ConfigurationError(`Two tools are named "${tool.name}". Tool names must be unique; rename one, or leave out the built-in one with its option (todoWrite, exitPlanMode).`);
      }
      byName.set(tool.name, tool);
    }
    this.tools = byName;
    this.toolDefinitions = tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.jsonSchema }));
    this.system = options.system ? [{ type: 'text', text: options.system }] : [];
    this.planStore = options.planStore ?? memoryPlanStore();
    this.price = findPrice(options.model.modelId, { ...DEFAULT_PRICES, ...options.prices });

    this.messages = snapshot ? [...snapshot.messages] : [];
    this.mode = snapshot?.permissionMode ?? options.permissionMode ?? 'default';
    this.prePlanMode = snapshot?.prePlanMode;
    this.todos = snapshot ? [...snapshot.todos] : [];
    this.planSlug = snapshot?.planSlug;
    this.plan = snapshot?.plan;
    this.sessionRules = {
      allow: [...(snapshot?.sessionRules.allow ?? [])],
      deny: [...(snapshot?.sessionRules.deny ?? [])],
      ask: [...(snapshot?.sessionRules.ask ?? [])],
    };
    this.assertRulesNameTools(options.rules);
    this.rules = createRuleSet(options.rules);
    for (const behavior of ['allow', 'deny', 'ask'] as const) {
      if (this.sessionRules[behavior].length) this.rules.add(behavior, this.sessionRules[behavior]);
    }
    this.pendingReminders = snapshot ? [...snapshot.pendingReminders] : [];
    this.openBatch = snapshot?.openBatch ? structuredClone(snapshot.openBatch) : undefined;
    this.toolStateData = snapshot ? structuredClone(snapshot.toolState) : {};

    assertPermissionMode(this.mode);
    if (snapshot && this.mode === 'bypassPermissions') {
      // A resumed session never starts without permission checks; the host can switch again.
      // The model is told, as for any mode change.
      this.mode = 'default';
      const reminder = modeReminder('default');
      this.pendingReminders.push(reminder);
      this.record({ kind: 'mode-change', from: 'bypassPermissions', to: 'default', reason: 'resume', reminder });
    }
    if (this.mode === 'bypassPermissions') this.assertBypassAllowed();
    if (!snapshot && this.mode !== 'default') {
      // The model learns the starting mode the same way it learns later changes: in the history.
      this.pendingReminders.push(modeReminder(this.mode, { planModeInstructions: options.planModeInstructions }));
    }
    const data = this.toolStateData;
    const toolState: ToolStateStore = {
      get: <T>(key: string) => data[key] as T | undefined,
      set: (key, value) => {
        data[key] = value;
        this.record({ kind: 'tool-state', key, value });
      },
    };
    const core = this;
    this.toolContext = {
      sessionId,
      agentId: this.agentId,
      get permissionMode() {
        return core.mode;
      },
      toolState,
    };
  }

  /**
   * Rules must name tools this agent has: a typo in a deny rule would otherwise never apply.
   * @throws ConfigurationError naming the rule and the tools there are.
   */
  assertRulesNameTools(rules: PermissionRules | undefined): void {
    assertRulesNameTools(rules, [...this.tools.keys()]);
  }

  /**
   * Stamps an event and delivers it to the active run and to listeners. With a session store,
   * the entry that records it is written first and delivery waits for it, so a host that saw an
   * event can rely on it being stored.
   */
  emit(input: AgentEventInput): AgentEvent {
    const event = { ...input, sessionId: this.sessionId } as AgentEvent;
    if (this.agentId !== undefined) event.agentId = this.agentId;
    const sink = this.runSink;
    if (!this.journal) {
      this.deliver(event, sink);
      return event;
    }
    const entry = entryForEvent(event);
    if (entry) this.journal.record(entry);
    this.journal.after(() => this.deliver(event, sink));
    return event;
  }

  private deliver(event: AgentEvent, sink: ((event: AgentEvent) => void) | undefined): void {
    sink?.(event);
    // Listeners are guarded by the Agent (one that throws is reported, the others still run).
    this.emitter.emit(event.type, event);
  }

  /** Appends transcript entries when there is a store; a no-op otherwise. */
  record(...drafts: EntryDraft[]): void {
    this.journal?.record(...drafts);
  }

  /** Resolves once every entry and event so far is stored and delivered. */
  flush(): Promise<void> {
    return this.journal?.flush() ?? Promise.resolve();
  }

  /**
   * Appends the model's message to the history; with `continued` (after `pause_turn`) its blocks
   * join the previous assistant message instead.
   */
  pushAssistant(message: AssistantMessage, messageId: string | undefined, continued = false): void {
    const last = this.messages[this.messages.length - 1];
    if (continued && last?.role === 'assistant') {
      this.messages[this.messages.length - 1] = { role: 'assistant', content: [...last.content, ...message.content] };
    } else {
      this.messages.push(message);
    }
    // Stored as its own entry; loading joins adjacent assistant entries the same way.
    this.record({ kind: 'message', message, ...(messageId ? { messageId } : {}) });
  }

  private assertBypassAllowed(): void {
    if (!this.options.allowDangerouslySkipPermissions) {
      throw new ConfigurationError(
        'permissionMode "bypassPermissions" runs every tool without asking. It is refused unless you also pass allowDangerouslySkipPermissions: true to createAgent.',
      );
    }
  }

  /** Changes the permission mode, saving `prePlanMode` on entering plan mode, and queues the mode's reminder. */
  setMode(to: PermissionMode, reason: string): void {
    assertPermissionMode(to);
    if (to === 'bypassPermissions') this.assertBypassAllowed();
    const from = this.mode;
    if (from === to) return;
    if (to === 'plan') this.prePlanMode = from;
    this.mode = to;
    const reminder = modeReminder(to, { planModeInstructions: this.options.planModeInstructions });
    this.pendingReminders.push(reminder);
    this.record({ kind: 'mode-change', from, to, reason, reminder, ...(to === 'plan' ? { prePlanMode: from } : {}) });
    this.emit({ type: 'mode-change', from, to, reason });
  }

  /** The mode to return to when a plan is approved without an explicit target. */
  modeAfterPlan(): PermissionMode {
    const previous = this.prePlanMode ?? 'default';
    if (previous === 'plan') return 'default';
    if (previous === 'auto' && !(this.options.autoMode && (this.options.autoMode.isAvailable?.() ?? true))) return 'default';
    if (previous === 'bypassPermissions' && !this.options.allowDangerouslySkipPermissions) return 'default';
    return previous;
  }

  /** Applies permission updates (from `canUseTool` or a resolved approval) to the session. */
  applyPermissionUpdates(updates: readonly PermissionUpdate[] | undefined): void {
    for (const update of updates ?? []) {
      if (update.type === 'addRules') {
        this.rules.add(update.behavior, update.rules);
        this.sessionRules[update.behavior].push(...update.rules);
        this.record({ kind: 'rules-added', behavior: update.behavior, rules: [...update.rules] });
      } else if (update.type === 'setMode') {
        this.setMode(update.mode, 'permission-update');
      }
    }
  }

  /** Replaces the todo list and announces it. */
  setTodos(todos: Todo[]): void {
    const previous = this.todos;
    this.todos = todos.map((todo) => ({ ...todo }));
    // The event gets copies: a listener that edits them cannot change the agent's list.
    const copy = (list: Todo[]) => list.map((todo) => ({ ...todo }));
    this.emit({ type: 'todo-update', todos: copy(this.todos), previous: copy(previous), changes: diffTodos(previous, this.todos) });
  }

  /** Writes an approved plan to the plan store under the session's name and keeps it in state. */
  async savePlan(text: string, toolUseId?: string): Promise<{ name: string; text: string }> {
    if (this.planSlug === undefined) {
      this.planSlug = await allocatePlanSlug({ store: this.planStore, agentId: this.agentId });
      this.record({ kind: 'session-meta', slug: this.planSlug });
    }
    const name = planFileName({ slug: this.planSlug, agentId: this.agentId });
    await this.planStore.write(name, text);
    this.plan = { name, text };
    this.record({ kind: 'plan-snapshot', slug: this.planSlug, name, text });
    this.emit({ type: 'plan-approved', plan: text, name, ...(toolUseId ? { toolUseId } : {}) });
    return this.plan;
  }

  /** Content for the next user message: queued reminders, then the given blocks. */
  takeReminders(): TextBlock[] {
    if (this.pendingReminders.length === 0) return [];
    const blocks = this.pendingReminders.map((reminder): TextBlock => ({ type: 'text', text: reminder }));
    this.pendingReminders = [];
    return blocks;
  }

  /**
   * Appends user content. When the history already ends with a user message (after an
   * interrupted batch, say), the new blocks join it so no two user messages are adjacent.
   */
  appendUserContent(blocks: ContentBlock[]): void {
    if (blocks.length === 0) return;
    const last = this.messages[this.messages.length - 1];
    if (last?.role === 'user') {
      const previous = typeof last.content === 'string' ? [{ type: 'text', text: last.content } as TextBlock] : last.content;
      this.messages[this.messages.length - 1] = { role: 'user', content: [...previous, ...blocks] };
    } else {
      this.messages.push({ role: 'user', content: blocks });
    }
    // Stored as its own entry; loading merges adjacent user entries the same way.
    this.record({ kind: 'message', message: { role: 'user', content: blocks } });
  }

  /** Plain JSON of everything a resume needs. */
  snapshot(): AgentSnapshot {
    const snapshot: AgentSnapshot = {
      $schemaVersion: SNAPSHOT_SCHEMA_VERSION,
      sessionId: this.sessionId,
      messages: this.messages,
      permissionMode: this.mode,
      todos: this.todos,
      sessionRules: this.sessionRules,
      pendingReminders: this.pendingReminders,
      toolState: this.toolStateData,
    };
    if (this.agentId !== undefined) snapshot.agentId = this.agentId;
    if (this.prePlanMode !== undefined) snapshot.prePlanMode = this.prePlanMode;
    if (this.planSlug !== undefined) snapshot.planSlug = this.planSlug;
    if (this.plan !== undefined) snapshot.plan = this.plan;
    if (this.openBatch !== undefined) snapshot.openBatch = this.openBatch;
    // A deep copy, so the snapshot does not change as the session goes on.
    const copy = structuredClone(snapshot);
    for (const call of copy.openBatch?.calls ?? []) {
      // A call running now may finish after the snapshot: a resume must answer it, not run it again.
      if (call.state === 'running') {
        call.state = 'done';
        call.result = { type: 'tool_result', tool_use_id: call.toolUseId, content: INTERRUPTED_BEFORE_FINISHING, is_error: true };
      }
      // An answered call needs only its result to continue.
      if (call.state === 'done') delete call.input;
    }
    return copy;
  }
}
