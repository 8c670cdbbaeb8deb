import { AgentCore } from '../runtime/agent-core.js';
import type { AgentOptions } from '../runtime/agent-options.js';
import { modeReminder } from '../permissions/mode-reminder.js';
import { subagentMode } from '../permissions/stricter-mode.js';
import { createSessionState, type SessionState } from '../state/index.js';
import { Toolbox } from '../tool-sources/index.js';
import { resolveToolSearch, type ResolvedToolSearch } from '../tool-search/index.js';
import type { ServerTool } from '../tools/server-tool.js';
import type { Model } from '../model/model.js';
import { isSessionReadToolOutput, sessionReadToolOutputTool, type ContextOptions } from '../context/index.js';
import { createAskUserQuestionTool } from '../tools/builtin/ask-user-question.js';
import { createExitPlanModeTool } from '../tools/builtin/exit-plan-mode.js';
import { createTodoWriteTool } from '../tools/builtin/todo-write.js';
import type { Tool } from '../tools/types.js';
import type { CanUseTool } from '../types/permission.js';
import type { AgentDefinition } from './agent-definition.js';
import { SidechainJournal } from './sidechain-journal.js';
import { lostLease } from '../loop/lost-lease.js';
import { offeredToReadOnly, subagentToolRefusal } from './read-only-refusal.js';

/** The built-in tools every agent makes for itself (bound to its own state), never shared with a subagent. */
const OWN_BUILTINS = new Set(['TodoWrite', 'ExitPlanMode', 'EnterPlanMode', 'AskUserQuestion', 'Agent', 'TaskOutput', 'ToolSearch']);

/** Who a subagent is and where it sits. */
export interface SubagentSetup {
  /** The agent whose call starts it. */
  parent: AgentCore;
  /** Its type: the key in `agents`. */
  subagentType: string;
  definition: AgentDefinition;
  agentId: string;
  /** The parent's call that starts it. */
  parentToolUseId: string;
  /** How many more levels of subagents it may start (it has an `Agent` tool when above 0). */
  depthLeft: number;
  /** A background task cannot wait for the host: what would be deferred is denied. */
  background: boolean;
  /** Makes the subagent's own `Agent` and `TaskOutput` tools (when `depthLeft` allows). */
  agentTools: (core: () => AgentCore, depthLeft: number) => Tool[];
}

/**
 * The tools a subagent gets: the parent's own tools (host tools, MCP tools, skills, deferred ones
 * included), narrowed to the definition's `tools` and, for a read-only type, to read-only ones and
 * the MCP tools (whose calls are checked against their server's latest `readOnlyHint`, see
 * `readOnlyRefusal`), plus built-ins bound to the subagent (its own todos, its own plan, its own
 * `ToolSearch`, and with `context.spill` its own `ReadToolOutput`), never `EnterPlanMode`, nor
 * the parent's `ReadToolOutput`, which pages the parent's spilled outputs (see {@link subagentContext}).
 */
export function subagentToolNames(parentTools: Iterable<Tool>, definition: AgentDefinition): Tool[] {
  const allowed = definition.tools ? new Set(definition.tools) : undefined;
  return [...parentTools].filter(
    (tool) => !OWN_BUILTINS.has(tool.name) && !isSessionReadToolOutput(tool) && (!allowed || allowed.has(tool.name)) && (!definition.readOnly || offeredToReadOnly(tool)),
  );
}

/**
 * The parent's provider server tools a subagent gets: those its definition's `tools` names, or
 * all of them. The provider runs them within its own response, never on the host, so a read-only
 * type gets them too.
 */
export function subagentServerTools(parentServerTools: readonly ServerTool[], definition: AgentDefinition): ServerTool[] {
  return definition.tools ? parentServerTools.filter((tool) => definition.tools!.includes(tool.name)) : [...parentServerTools];
}

/**
 * The parent's context management, for a subagent's own history: the window table (`windows`),
 * clearing and compaction (off, or with the host's thresholds and summary instructions) carry
 * over; so does `window` when the subagent runs on the parent's model (a window belongs to a
 * model). So does `spill`: a subagent keeps its own long results aside in its own state (a
 * sidechain `spill` entry) and pages them with a `ReadToolOutput` of its own; the parent's pages
 * the parent's outputs only, and is not passed on.
 */
export function subagentContext(from: ContextOptions | undefined, sameModel: boolean): ContextOptions | undefined {
  if (from === undefined) return undefined;
  const context: ContextOptions = {};
  if (from.window !== undefined && sameModel) context.window = from.window;
  if (from.windows !== undefined) context.windows = from.windows;
  if (from.clearing !== undefined) context.clearing = from.clearing;
  if (from.compaction !== undefined) context.compaction = from.compaction;
  if (from.spill !== undefined && from.spill !== false) context.spill = from.spill;
  return Object.keys(context).length > 0 ? context : undefined;
}

/**
 * How a subagent with deferred tools finds them: the parent's `toolSearch` setting, resolved for
 * the subagent's own model. A model that does not run the provider's tool search the setting asks
 * for (`'regex'`, `'bm25'`) gets the client-side `ToolSearch` instead, as with `'auto'`.
 */
export function subagentToolSearch(parentOptions: AgentOptions, model: Model): ResolvedToolSearch {
  const mode = parentOptions.toolSearch ?? 'auto';
  const support = model.capabilities?.toolSearch ?? 'none';
  return resolveToolSearch(support !== 'server' && (mode === 'regex' || mode === 'bm25') ? 'auto' : mode, support, model.modelId);
}

/** What the model of a background subagent reads for a call that would have waited for the host. */
const CANNOT_WAIT = 'This background subagent cannot wait for the user\'s approval, so the call was not run. Do without it, or report what you need.';

/** The parent's `canUseTool`, told which subagent asks; a background task cannot wait, so a deferral is a denial. */
function bubblingCanUseTool(setup: SubagentSetup): CanUseTool | undefined {
  const host = setup.parent.options.canUseTool;
  const refuse = { behavior: 'deny' as const, message: CANNOT_WAIT };
  if (!host) return setup.background ? () => refuse : undefined;
  return async (toolName, input, context) => {
    const answer = await host(toolName, input, { subagentType: setup.subagentType, parentToolUseId: setup.parentToolUseId, ...context });
    return setup.background && answer.behavior === 'defer' ? refuse : answer;
  };
}

/**
 * Builds a subagent's core: its own history, todos, tool state and mode, its transcript a
 * sidechain of the parent's session, its events the parent's (marked with its `agentId` and the
 * parent's call), its mode capped by the parent's for as long as it lives. `state` continues a
 * subagent that waited on an approval; without it the subagent starts fresh.
 */
export function buildSubagentCore(setup: SubagentSetup, state?: SessionState): AgentCore {
  const { parent, definition } = setup;
  const inherited = subagentToolNames(parent.tools.values(), definition);
  const mode = subagentMode(parent.mode, definition.permissionMode);
  let core: AgentCore | undefined;
  const self = () => core!;
  const builtins: Tool[] = [];
  const wants = (name: string) => parent.hasTool(name) && (!definition.tools || definition.tools.includes(name));
  if (wants('TodoWrite')) builtins.push(createTodoWriteTool(self));
  if (parent.hasTool('ExitPlanMode')) builtins.push(createExitPlanModeTool(self, { plansOnly: definition.permissionMode === 'plan' }));
  if (wants('AskUserQuestion')) builtins.push(createAskUserQuestionTool());
  if (setup.depthLeft > 0) builtins.push(...setup.agentTools(self, setup.depthLeft));
  // Its long results are kept in its own state: it pages them (and only them) with its own tool.
  const spill = parent.context.settings.spill;
  if (spill) builtins.push(sessionReadToolOutputTool({ load: (handle) => self().spillStore.load(handle), save: (output) => self().spillStore.save(output) }, spill.maxChars));
  const tools = [...inherited, ...builtins];
  const canUseTool = bubblingCanUseTool(setup);
  const from = parent.options;
  const model = definition.model ?? from.model;
  const serverTools = subagentServerTools(parent.toolbox.serverTools, definition);
  const search = inherited.some((tool) => tool.deferLoading === true) ? subagentToolSearch(from, model) : undefined;
  const toolbox = new Toolbox({ tools, serverTools, ...(search ? { search } : {}) });
  const options: AgentOptions = {
    model,
    system: definition.prompt,
    permissionMode: mode,
    agentId: setup.agentId,
    sessionId: parent.sessionId,
    planStore: parent.planStore,
    ...(canUseTool ? { canUseTool } : {}),
    ...(from.hooks ? { hooks: from.hooks } : {}),
    ...(from.autoMode ? { autoMode: from.autoMode } : {}),
    // The host's consent to bypassPermissions holds for the session: a subagent's own setMode to it
    // (an "always allow" answer) is taken, and its mode in force is still never bypassPermissions.
    ...(from.allowDangerouslySkipPermissions ? { allowDangerouslySkipPermissions: true } : {}),
    ...(from.cwd !== undefined ? { cwd: from.cwd } : {}),
    ...(definition.maxTurns ?? from.maxTurns ? { maxTurns: definition.maxTurns ?? from.maxTurns } : {}),
    ...(from.prices ? { prices: from.prices } : {}),
    // The budget of a run of its own (a background task, a plan verifier); in a run's tool call
    // it spends from that run's total instead.
    ...(from.maxBudgetUsd !== undefined ? { maxBudgetUsd: from.maxBudgetUsd } : {}),
    ...(from.tracer ? { tracer: from.tracer } : {}),
    ...(from.planModeInstructions !== undefined ? { planModeInstructions: from.planModeInstructions } : {}),
    ...(from.maxToolResultChars !== undefined ? { maxToolResultChars: from.maxToolResultChars } : {}),
    ...(from.maxToolConcurrency !== undefined ? { maxToolConcurrency: from.maxToolConcurrency } : {}),
    ...(from.maxToolCallsPerTurn !== undefined ? { maxToolCallsPerTurn: from.maxToolCallsPerTurn } : {}),
    ...(from.maxStreamRetries !== undefined ? { maxStreamRetries: from.maxStreamRetries } : {}),
    ...(from.streamRetryBackoff !== undefined ? { streamRetryBackoff: from.streamRetryBackoff } : {}),
    ...(from.toolSearch !== undefined ? { toolSearch: from.toolSearch } : {}),
    ...(from.refusedAnswers !== undefined ? { refusedAnswers: from.refusedAnswers } : {}),
  };
  const context = subagentContext(from.context, model.modelId === from.model.modelId);
  if (context !== undefined) options.context = context;
  const initial = state ?? freshSubagentState(setup, mode);
  const journal = parent.journal ? new SidechainJournal(parent.journal, setup.agentId) : undefined;
  core = new AgentCore(options, toolbox, initial, state ? 'resume' : 'startup', journal, parent.revision);
  core.emitter = parent.emitter;
  core.parentToolUseId = setup.parentToolUseId;
  // A background task cannot wait for the host, nor can anything it starts: what would be parked is denied.
  core.cannotWait = setup.background ? CANNOT_WAIT : parent.cannotWait;
  // Its calls start under the session's lease, as the parent's do: a loss it finds stops the parent too.
  core.leaseCheck = () => lostLease(parent);
  // Never looser than the parent now: a parent switched to plan mode makes its subagents read-only.
  core.modeCeiling = () => parent.mode;
  // Never looser than its type, ever: a planning type's approved plan does not let it carry it out.
  core.modeCap = definition.permissionMode;
  // A read-only type uses an MCP tool only while its server's latest listing says it only reads;
  // so does every subagent below a read-only one (it inherits the parent's refusal).
  core.toolRefusal = subagentToolRefusal(setup.subagentType, definition.readOnly === true, parent.toolRefusal);
  // Its hosts' "always allow" answers are the session's: the parent keeps them too.
  core.sessionParent = parent;
  // It decides with all of the parent's rules as they are now (a deny the host adds holds at
  // once; a deny on Read(…) paths holds for its Bash and Grep even without a Read tool).
  core.inheritRules = () => parent.ruleLists();
  // Events go to whichever run of the parent is active (a background task outlives the run that started it).
  core.runSink = (event) => parent.runSink?.(event);
  return core;
}

function freshSubagentState(setup: SubagentSetup, mode: AgentOptions['permissionMode'] & string): SessionState {
  const state = createSessionState({ sessionId: setup.parent.sessionId, agentId: setup.agentId, permissionMode: mode });
  // Its plan is `{slug}-agent-{agentId}.md` under the parent's slug.
  if (setup.parent.state.planSlug !== undefined) state.planSlug = setup.parent.state.planSlug;
  if (mode !== 'default') state.pendingReminders.push(modeReminder(mode, { planModeInstructions: setup.parent.options.planModeInstructions }));
  return state;
}
