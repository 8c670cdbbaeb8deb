import { nanoid } from 'nanoid';
import { ConfigurationError } from '../errors/configuration-error.js';
import { DEFAULT_PRICES, findPrice } from '../loop/pricing.js';
import { validateHooksConfig } from '../hooks/validate-hooks-config.js';
import { entriesToSnapshot } from '../session/entries-to-snapshot.js';
import { Journal } from '../session/journal.js';
import { claimSession } from '../session/open-sessions.js';
import { copyPlanForResume } from '../plan/copy-plan.js';
import { loadEntries } from '../session/load-entries.js';
import type { SessionStore } from '../session/session-store.js';
import { snapshotToEntries } from '../session/snapshot-to-entries.js';
import { createEnterPlanModeTool } from '../tools/builtin/enter-plan-mode.js';
import { createExitPlanModeTool } from '../tools/builtin/exit-plan-mode.js';
import { createTodoWriteTool } from '../tools/builtin/todo-write.js';
import type { Tool } from '../tools/types.js';
import { Agent } from './agent.js';
import { AgentCore } from './agent-core.js';
import type { AgentOptions } from './agent-options.js';
import { readSnapshot, type AgentSnapshot } from './snapshot.js';
import { SessionNotFoundError } from '../errors/session-not-found-error.js';

type Origin = 'startup' | 'resume' | 'fork';

function validateOptions(options: AgentOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError('createAgent needs an options object: createAgent({ model, system, tools }).');
  }
  const model = options.model as Partial<AgentOptions['model']> | undefined;
  if (!model || typeof model.stream !== 'function') {
    throw new ConfigurationError('createAgent: `model` is required and must implement Model (a `stream(request)` method), e.g. model: anthropicModel({ model: "claude-sonnet-4-6" }) or scriptedModel([...]) from agent-harness/testing.');
  }
  if (options.tools !== undefined && !Array.isArray(options.tools)) {
    throw new ConfigurationError('createAgent: `tools` must be an array of tools made with defineTool().');
  }
  for (const [index, tool] of (options.tools ?? []).entries()) {
    if (!tool || typeof tool.parseInput !== 'function' || typeof tool.execute !== 'function') {
      throw new ConfigurationError(`createAgent: tools[${index}] is not a tool; create tools with defineTool({ name, description, inputSchema, execute }).`);
    }
  }
  for (const key of ['maxTurns', 'maxToolResultChars', 'maxToolConcurrency'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new ConfigurationError(`createAgent: \`${key}\` must be a positive integer, got ${JSON.stringify(value)}.`);
    }
  }
  if (options.maxStreamRetries !== undefined && !(Number.isInteger(options.maxStreamRetries) && options.maxStreamRetries >= 0)) {
    throw new ConfigurationError(`createAgent: \`maxStreamRetries\` must be an integer of 0 or more, got ${JSON.stringify(options.maxStreamRetries)}.`);
  }
  if (options.maxBudgetUsd !== undefined && !(typeof options.maxBudgetUsd === 'number' && options.maxBudgetUsd > 0)) {
    throw new ConfigurationError(`createAgent: \`maxBudgetUsd\` must be a positive number of US dollars, got ${JSON.stringify(options.maxBudgetUsd)}.`);
  }
  if (options.maxBudgetUsd !== undefined && !findPrice(model.modelId ?? '', { ...DEFAULT_PRICES, ...options.prices })) {
    throw new ConfigurationError(
      `createAgent: maxBudgetUsd needs a price for model "${model.modelId}", and the price table has none. Pass it: prices: { '${model.modelId}': { input: <USD per million input tokens>, output: <USD per million output tokens> } }.`,
    );
  }
  if (options.canUseTool !== undefined && typeof options.canUseTool !== 'function') {
    throw new ConfigurationError('createAgent: `canUseTool` must be a function (toolName, input, context) => result.');
  }
  if (options.hooks !== undefined) validateHooksConfig(options.hooks);
  if (typeof options.resume === 'string' && !options.store) {
    throw new ConfigurationError(`createAgent: resume "${options.resume}" is a session id, which needs the \`store\` it was saved in (e.g. store: fileSessionStore({ dir })). To resume without a store, pass the object agent.snapshot() returned.`);
  }
}

function buildCore(options: AgentOptions, snapshot: AgentSnapshot | undefined, origin: Origin, journal: Journal | undefined): AgentCore {
  let core: AgentCore | undefined;
  const getCore = () => core!;
  const tools: Tool[] = [...(options.tools ?? [])];
  if (options.todoWrite ?? true) tools.push(createTodoWriteTool(getCore));
  if (options.exitPlanMode ?? true) tools.push(createExitPlanModeTool(getCore));
  if (options.enterPlanMode ?? false) tools.push(createEnterPlanModeTool(getCore));
  const sessionId = snapshot?.sessionId ?? options.sessionId ?? `session_${nanoid(16)}`;
  core = new AgentCore(options, tools, sessionId, snapshot, origin, journal);
  return core;
}

function newAgent(options: AgentOptions, core: AgentCore | Promise<AgentCore>): Agent {
  return new Agent(core, options.maxToolConcurrency ?? 10, (snapshot) => Promise.resolve(newAgent(options, coreFor(options, snapshot, 'fork'))));
}

/** A core for a new session (fresh or forked): with a store, its transcript starts with the full state. */
function coreFor(options: AgentOptions, snapshot: AgentSnapshot | undefined, origin: Origin): AgentCore {
  const store = options.store;
  if (!store) return buildCore(options, snapshot, origin, undefined);
  const sessionId = snapshot?.sessionId ?? options.sessionId ?? `session_${nanoid(16)}`;
  const journal = new Journal(store, sessionId, snapshot?.agentId ?? options.agentId);
  const core = buildCore({ ...options, sessionId }, snapshot, origin, journal);
  claimSession(store, sessionId, core);
  journal.record(...snapshotToEntries(core.snapshot()));
  return core;
}

/**
 * A snapshot and a store that both hold the session must agree: a snapshot older than the
 * transcript would offer answered approvals again and run their tools twice.
 */
function assertSnapshotMatchesStore(snapshot: AgentSnapshot, stored: AgentSnapshot): void {
  const pending = (state: AgentSnapshot) =>
    (state.openBatch?.calls ?? []).filter((call) => call.state === 'deferred').map((call) => call.toolUseId).join(',');
  if (snapshot.messages.length !== stored.messages.length || pending(snapshot) !== pending(stored)) {
    throw new ConfigurationError(
      `createAgent: the snapshot of session "${snapshot.sessionId}" (${snapshot.messages.length} messages, pending: ${pending(snapshot) || 'none'}) does not match its transcript in the store (${stored.messages.length} messages, pending: ${pending(stored) || 'none'}). The store is written as the session goes, so resume from it: resume: "${snapshot.sessionId}".`,
    );
  }
}

/** Resumes a session kept in a store: by id (rebuilt from its transcript), or from a snapshot. */
async function resumeFromStore(options: AgentOptions, store: SessionStore): Promise<AgentCore> {
  const resume = options.resume!;
  const sessionId = typeof resume === 'string' ? resume : readSnapshot(resume).sessionId;
  const warnings: string[] = [];
  const entries = await loadEntries(store, sessionId, { onWarning: (warning) => warnings.push(warning.message) });
  let snapshot: AgentSnapshot;
  if (typeof resume === 'string') {
    if (entries.length === 0) throw new SessionNotFoundError(sessionId);
    snapshot = entriesToSnapshot(sessionId, entries);
  } else {
    snapshot = readSnapshot(resume);
    if (entries.length > 0) assertSnapshotMatchesStore(snapshot, entriesToSnapshot(sessionId, entries));
  }
  const last = entries.at(-1);
  const journal = new Journal(store, sessionId, snapshot.agentId ?? options.agentId, { lastId: last?.id ?? null, revision: last?.seq ?? 0 });
  const core = buildCore(options, snapshot, 'resume', journal);
  claimSession(store, sessionId, core);
  // A snapshot resumed into a store that has never seen the session seeds its transcript.
  if (entries.length === 0) journal.record(...snapshotToEntries(core.snapshot()));
  // The plan store lost the plan (another machine, a wiped directory): put it back from the history.
  if (core.planSlug !== undefined && entries.length > 0) {
    await copyPlanForResume({ store: core.planStore, slug: core.planSlug, entries, ...(core.agentId !== undefined ? { agentId: core.agentId } : {}) });
  } else if (core.plan && !(await core.planStore.exists(core.plan.name))) {
    await core.planStore.write(core.plan.name, core.plan.text);
  }
  await core.flush();
  core.loadWarnings = warnings;
  return core;
}

/**
 * Creates an agent: one conversation with a model, its tools and permissions. Cheap: no I/O,
 * no subprocess — except when resuming from a `store`, which loads in the background
 * (`await agent.ready`; `run()` waits by itself).
 * @throws ConfigurationError naming the bad option.
 * @throws UnsupportedSchemaVersionError when `resume` is a snapshot this version cannot read.
 * @example
 * const agent = createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6' }), system: 'You are a writing assistant.' });
 * const result = await agent.run('Outline an article about tide pools.').result;
 */
export function createAgent(options: AgentOptions): Agent {
  validateOptions(options);
  if (options.store && options.resume !== undefined) return newAgent(options, resumeFromStore(options, options.store));
  const snapshot = options.resume === undefined ? undefined : readSnapshot(options.resume);
  if (snapshot && options.sessionId !== undefined && options.sessionId !== snapshot.sessionId) {
    throw new ConfigurationError(`createAgent: sessionId "${options.sessionId}" differs from the resumed snapshot's "${snapshot.sessionId}"; leave sessionId out when resuming.`);
  }
  return newAgent(options, snapshot ? buildCore(options, snapshot, 'resume', undefined) : coreFor(options, undefined, 'startup'));
}
