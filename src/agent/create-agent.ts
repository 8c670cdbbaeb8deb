import { randomId } from '../ids/random-id.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import { SessionConflictError } from '../errors/session-conflict-error.js';
import { SessionNotFoundError } from '../errors/session-not-found-error.js';
import { modeReminder } from '../permissions/mode-reminder.js';
import { copyPlanForResume } from '../plan/copy-plan.js';
import { Journal, type TranscriptWriter } from '../session/journal.js';
import { claimSession } from '../session/open-sessions.js';
import { loadForResume, wholeTranscript } from './load-for-resume.js';
import type { SessionStore } from '../session/session-store.js';
import { createSessionState, foldEntries, settleLoadedState, type BatchCall, type SessionEntry, type SessionState } from '../state/index.js';
import { foldOwnedEntries } from '../state/fold-entries.js';
import { repairState } from '../state/repair-state.js';
import { createEnterPlanModeTool } from '../tools/builtin/enter-plan-mode.js';
import { createExitPlanModeTool, isBuiltinExitPlanMode } from '../tools/builtin/exit-plan-mode.js';
import { createTodoWriteTool } from '../tools/builtin/todo-write.js';
import { createAskUserQuestionTool } from '../tools/builtin/ask-user-question.js';
import type { AgentServices } from '../tools/builtin/agent-services.js';
import type { Tool } from '../tools/types.js';
import type { ResolvedToolSources } from '../tool-sources/index.js';
import { agentToolbox, pendingToolSources, withToolSources } from './agent-tool-sources.js';
import { LoadingStop, toolSourcesAreAsync } from '../tool-sources/index.js';
import { Agent } from './agent.js';
import { AgentCore, type SessionOrigin } from '../runtime/agent-core.js';
import type { AgentOptions } from '../runtime/agent-options.js';
import { validateAgentOptions } from './validate-agent-options.js';
import { memoryTool, sessionReadToolOutputTool } from '../context/index.js';
import { readSnapshot } from '../runtime/snapshot.js';
import { calibrateResumedContext } from '../runtime/calibrate-resumed-context.js';
import { copySnapshotKeys } from '../runtime/snapshot-signature.js';
import { assertAgentToolsExist, createAgentTools, settleStoppedBackgroundTasks } from '../subagents/index.js';
import { verifyOnCompletion } from './verify-plan.js';

function buildCore(options: AgentOptions, state: SessionState, origin: SessionOrigin, journal: TranscriptWriter | undefined, sources: ResolvedToolSources, revision = 0): AgentCore {
  let core: AgentCore | undefined;
  const services = (): AgentServices => core!;
  const builtins: Tool[] = [];
  if (options.todoWrite ?? true) builtins.push(createTodoWriteTool(services));
  if (options.exitPlanMode ?? true) builtins.push(createExitPlanModeTool(services));
  if (options.enterPlanMode ?? false) builtins.push(createEnterPlanModeTool(services));
  if (options.askUserQuestion ?? false) builtins.push(createAskUserQuestionTool());
  if (options.memory) builtins.push(memoryTool(options.memory));
  const spill = options.context?.spill;
  if (spill) builtins.push(sessionReadToolOutputTool({ load: (handle) => core!.spillStore.load(handle), save: (output) => core!.spillStore.save(output) }, spill === true ? undefined : spill.maxChars));
  if (options.agents) builtins.push(...createAgentTools(() => core!, { agents: options.agents }));
  core = new AgentCore(options, agentToolbox(options, builtins, sources), state, origin, journal, revision, sources);
  if (options.agents) assertAgentToolsExist(options.agents, core);
  if (options.verifyPlanOnCompletion) core.verifyOnCompletion = verifyOnCompletion(core, options.verifyPlanOnCompletion);
  return core;
}

/** Makes the agent; `make` builds its core once the tool sources are resolved (see `withToolSources`). */
function newAgent(options: AgentOptions, make: (sources: ResolvedToolSources) => AgentCore | Promise<AgentCore>): Agent {
  // Sources that connect can be stopped by close() while they do.
  const loading = toolSourcesAreAsync(options) ? new LoadingStop() : undefined;
  return new Agent(
    withToolSources(options, make, loading),
    { maxToolConcurrency: options.maxToolConcurrency ?? 10, model: options.model, ...(loading ? { stopLoading: () => loading.stop() } : {}) },
    (state, forkedFrom) => newAgent(options, (sources) => startCore(options, state, 'fork', sources, forkedFrom)),
  );
}

/** A journal for a session, continuing the stored transcript at its last entry. */
function journalFor(store: SessionStore, state: SessionState, last: { lastId: string | null; revision: number } | undefined, fencingToken: number | undefined): Journal {
  const journal = new Journal(store, state.sessionId, state.agentId, { lastId: last?.lastId ?? null, revision: last?.revision ?? 0 });
  journal.fencingToken = fencingToken;
  return journal;
}

/**
 * A core for a new session (fresh or forked). With a store its transcript starts with a
 * checkpoint of the whole state, so loading it needs nothing else. A fresh session's checkpoint
 * is written with the first append (the first run's start, a change made before it, or
 * `flush()`), not on its own: a new session's first write is one round trip, not two.
 */
function startCore(options: AgentOptions, state: SessionState, origin: 'startup' | 'fork', sources: ResolvedToolSources, forkedFrom?: string): AgentCore {
  const store = options.store;
  if (!store) return buildCore(options, state, origin, undefined, sources);
  // The lease is on the host's session; a fork is another session, written without it.
  const journal = journalFor(store, state, undefined, origin === 'fork' ? undefined : options.fencingToken);
  const core = buildCore(options, state, origin, journal, sources);
  core.sessionClaim = claimSession(store, state.sessionId);
  // One append: a process killed while a fork is written leaves no half-written session behind.
  const checkpoint = { kind: 'checkpoint', state: structuredClone(state), reason: origin } as const;
  if (forkedFrom !== undefined) core.commit({ kind: 'session-meta', forkedFrom }, checkpoint);
  else if (origin === 'fork') core.commit(checkpoint);
  // The live state already is the checkpoint's (a fresh state holds no text to make well-formed).
  else journal.recordLater(checkpoint);
  return core;
}

/** The state of a brand-new session: the model learns a starting mode other than `default` like a later change. */
function freshState(options: AgentOptions): SessionState {
  const mode = options.permissionMode ?? 'default';
  const state = createSessionState({ sessionId: options.sessionId ?? `session_${randomId(16)}`, agentId: options.agentId, permissionMode: mode });
  if (mode !== 'default') state.pendingReminders.push(modeReminder(mode, { planModeInstructions: options.planModeInstructions }));
  return state;
}

/**
 * Makes a loaded session safe to continue, recording each step: a repaired history (as a
 * checkpoint), answers for calls that may have been running when the process stopped (an approved
 * built-in `ExitPlanMode` of a session read from its transcript runs again instead), the host's
 * answers to calls after one still waiting kept (from a trusted source) or decided again, `default`
 * instead of `bypassPermissions` (a resumed session never starts without permission checks), and
 * background tasks that were running recorded as interrupted, the model told.
 */
function continueLoaded(core: AgentCore, repairs: string[], seed: boolean, fromTranscript = false): void {
  if (seed || repairs.length > 0) core.commit({ kind: 'checkpoint', state: structuredClone(core.state), reason: seed ? 'snapshot' : 'repair' });
  // An approved built-in ExitPlanMode only saves the plan and changes the mode: in a session read
  // from its own transcript it runs again, so the host's approval is kept. A snapshot is input,
  // not trust, and a host tool of that name may do anything: those are answered as interrupted.
  const runAgain = fromTranscript ? (call: BatchCall) => call.toolName === 'ExitPlanMode' && isBuiltinExitPlanMode(core.tools.get(call.toolName)) : undefined;
  // An answer the host gave while an earlier call still waited is kept where the state can be
  // trusted (its own transcript, a signed snapshot) and nothing here refuses the call now.
  const trusted = fromTranscript || core.options.snapshotKey !== undefined;
  const keepAllowed = trusted ? (call: BatchCall) => stillAllowed(core, call) : undefined;
  core.commit(...settleLoadedState(core.state, { ...(runAgain ? { runAgain } : {}), ...(keepAllowed ? { keepAllowed } : {}) }));
  if (core.mode === 'bypassPermissions') {
    const reminder = modeReminder('default');
    core.commit({ kind: 'mode-change', from: 'bypassPermissions', to: 'default', reason: 'resume', reminder });
  }
  settleStoppedBackgroundTasks(core);
}

/** Whether an allowed call may keep its answer in this process: its tool is here and no deny rule now matches its input. */
function stillAllowed(core: AgentCore, call: BatchCall): boolean {
  const tool = core.tools.get(call.toolName);
  return tool !== undefined && core.rules.match('deny', tool, call.input, { cwd: core.options.cwd }) === undefined;
}

/** Gaps in a transcript's numbering: entries lost to damage in the middle of it (not copies skipped, `copies`). */
function gapWarnings(sessionId: string, entries: readonly SessionEntry[], copies: readonly number[]): string[] {
  const warnings: string[] = [];
  const copied = new Set(copies);
  for (let index = 1; index < entries.length; index++) {
    let previous = entries[index - 1]!.seq;
    const seq = entries[index]!.seq;
    while (copied.has(previous + 1)) previous += 1;
    if (seq > previous + 1) warnings.push(`Session "${sessionId}": entries ${previous + 1}${seq - 1 > previous + 1 ? `–${seq - 1}` : ''} of the transcript are missing (damaged or removed); the session was rebuilt from the rest.`);
  }
  return warnings;
}

/** Resumes a session kept in a store: by id (rebuilt from its transcript), or from a snapshot. */
async function resumeFromStore(options: AgentOptions, store: SessionStore, sources: ResolvedToolSources): Promise<AgentCore> {
  const resume = options.resume!;
  const snapshot = typeof resume === 'string' ? undefined : readSnapshot(resume, options.snapshotKey !== undefined ? { snapshotKey: options.snapshotKey } : {});
  const sessionId = typeof resume === 'string' ? resume : snapshot!.state.sessionId;
  const { transcript, warnings, partial } = await loadForResume(store, sessionId, options.agentId);
  const { entries } = transcript;
  warnings.push(...gapWarnings(sessionId, entries, transcript.copies));
  if (typeof resume === 'string' && entries.length === 0) throw new SessionNotFoundError(sessionId);
  const last = entries.at(-1);
  // A snapshot and a store that both hold the session must be at the same revision: an older
  // snapshot would offer answered approvals again and run their tools twice.
  if (snapshot && last && snapshot.revision !== transcript.revision) {
    throw new SessionConflictError({ sessionId, expectedRevision: snapshot.revision, actualRevision: transcript.revision });
  }
  const fold = transcript.owned ? foldOwnedEntries : foldEntries;
  const state = last ? fold(entries, { sessionId, ...(options.agentId !== undefined ? { agentId: options.agentId } : {}) }) : snapshot!.state;
  const repairs = [...(snapshot && !last ? snapshot.repairs : []), ...repairState(state)];
  for (const repair of repairs) warnings.push(`Session "${sessionId}" was repaired while loading: ${repair}.`);
  const core = buildCore(options, state, 'resume', journalFor(store, state, last ? transcript : undefined, options.fencingToken), sources);
  // The estimate of the context is calibrated by the last reported usage, as it was before the
  // restart (not after a repair: the history is then not the one that usage was reported for).
  if (repairs.length === 0) calibrateResumedContext(core, entries);
  core.sessionClaim = claimSession(store, sessionId);
  continueLoaded(core, repairs, !last, last !== undefined);
  // The plan store lost the plan (another machine, a wiped directory): put it back from the history.
  if (core.state.planSlug !== undefined && entries.length > 0) {
    // Read only when the store lacks the plan; from the whole transcript, as the plan may be older than the checkpoint.
    const planEntries = partial ? wholeTranscript(store, sessionId) : entries;
    await copyPlanForResume({ store: core.planStore, slug: core.state.planSlug, entries: planEntries, ...(core.agentId !== undefined ? { agentId: core.agentId } : {}) });
  } else if (core.plan && !(await core.planStore.exists(core.plan.name))) {
    await core.planStore.write(core.plan.name, core.plan.text);
  }
  await core.flushOrThrow();
  core.loadWarnings = warnings;
  return core;
}

/**
 * Creates an agent: one conversation with a model, its tools and permissions. Cheap: no I/O,
 * no subprocess — except when resuming from a `store`, which loads in the background
 * (`await agent.ready`; `run()` waits by itself).
 * @throws ConfigurationError naming the bad option.
 * @throws UnsupportedSchemaVersionError when `resume` is a snapshot this version cannot read.
 * @throws SnapshotInvalidError when `resume` is a snapshot that is malformed, altered, or (with `snapshotKey`) not validly signed.
 * @example
 * const agent = createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6' }), system: 'You are a writing assistant.' });
 * const result = await agent.run('Outline an article about tide pools.').result;
 */
export function createAgent(options: AgentOptions): Agent {
  validateAgentOptions(options);
  // The agent signs and checks with the keys as they were given: a host that zeroes its buffer
  // afterwards (clearing a secret from memory) must not leave snapshots signed with zeros.
  if (options.snapshotKey !== undefined) options = { ...options, snapshotKey: copySnapshotKeys(options.snapshotKey) };
  const store = options.store;
  if (store && options.resume !== undefined) return newAgent(options, (sources) => resumeFromStore(options, store, sources));
  if (options.resume === undefined) {
    // Tool sources load in `ready`: what can be checked without them (tool names, rules) fails here.
    if (toolSourcesAreAsync(options)) buildCore(options, freshState(options), 'startup', undefined, pendingToolSources(options));
    return newAgent(options, (sources) => startCore(options, freshState(options), 'startup', sources));
  }
  const snapshot = readSnapshot(options.resume, options.snapshotKey !== undefined ? { snapshotKey: options.snapshotKey } : {});
  if (options.sessionId !== undefined && options.sessionId !== snapshot.state.sessionId) {
    throw new ConfigurationError(`createAgent: sessionId "${options.sessionId}" differs from the resumed snapshot's "${snapshot.state.sessionId}"; leave sessionId out when resuming.`);
  }
  if (toolSourcesAreAsync(options)) buildCore(options, structuredClone(snapshot.state), 'resume', undefined, pendingToolSources(options), snapshot.revision);
  return newAgent(options, (sources) => {
    const repairs = [...snapshot.repairs, ...repairState(snapshot.state)];
    const core = buildCore(options, snapshot.state, 'resume', undefined, sources, snapshot.revision);
    continueLoaded(core, repairs, false);
    core.loadWarnings = repairs.map((repair) => `Session "${core.sessionId}" was repaired while loading: ${repair}.`);
    return core;
  });
}
