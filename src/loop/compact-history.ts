import type { AgentCore } from '../runtime/agent-core.js';
import { runHooksUnchecked } from '../hooks/run-hooks.js';
import {
  buildCompactedHistory,
  buildSummaryRequest,
  clearStaleToolResults,
  extractHandoffSummary,
  findCompactionCut,
  LOADED_SKILLS_HEADING,
  restatedStateInOpening,
  toolResultText,
  unclosedHandoffSummary,
  type CompactionState,
} from '../context/index.js';
import { CompactionError } from '../errors/compaction-error.js';
import { refusedForSize } from './refused-for-size.js';
import { isStreamRetryable, streamRetryDelay, waitBeforeStreamRetry } from './stream-retry-backoff.js';
import type { Message, TextBlock, ToolResultBlock, ToolUseBlock } from '../model/messages.js';
import { SKILL_TOOL_NAME } from '../skills/skill-tool.js';
import type { ModelRequest, ModelResponse } from '../model/model.js';
import { addUsage, emptyUsage, type Usage } from '../model/usage.js';
import { groupDigits } from '../model/group-digits.js';
import { PartialUsage } from './partial-usage.js';
import type { SessionState } from '../state/index.js';
import type { CompactionTrigger } from '../types/context-usage.js';
import { hookInputBase, reportHookErrors } from './execute-tools.js';
import { noteCompaction } from './compaction-pause.js';
import { flushWriteError } from './write-error.js';
import { sendableHistory } from './sendable-history.js';
import { refusedAnswerAt } from '../state/withhold-refused-answer.js';
import { keepLatestPrompt, type LatestPromptCut } from './keep-latest-prompt.js';
import { questionTools } from './question-tools.js';
import { startAndLaterHalf } from './start-and-later-half.js';
import { describeThrown } from '../errors/describe-thrown.js';
import { raceAbort } from '../permissions/race-abort.js';
import { modeReminder } from '../permissions/mode-reminder.js';
import { PERMISSION_MODES } from '../types/permission.js';

/** Options of {@link compactHistory}. */
export interface CompactHistoryOptions {
  trigger: CompactionTrigger;
  /** Extra instructions for the summary (`agent.compact({ instructions })`). */
  instructions?: string;
  signal: AbortSignal;
  /**
   * Told what the summary calls used once they are done, whether the compaction succeeded or
   * failed: a run counts them in its usage, cost and budget (a failed summary was paid for too).
   * The second argument is the part of the output tokens estimated for a summary call given up
   * midway (see `PartialUsage`).
   */
  countUsage?: (usage: Usage, estimatedOutputTokens: number) => void;
  /**
   * The run's turn the compaction follows (or, for a reactive one, happens in), for the
   * `context-usage` event after it.
   * @default 0 (outside a run: `agent.compact()`)
   */
  turn?: number;
}

/** What a compaction did. */
export interface CompactionResult {
  /** False when nothing was compacted: see `skipped`. */
  compacted: boolean;
  /**
   * Why nothing was compacted: a `PreCompact` hook blocked it, the history has nothing to
   * summarize, or it was interrupted (`agent.interrupt()`, `agent.close()`, the signal) before
   * the summary was taken; the history is then as it was.
   */
  skipped?: 'blocked' | 'nothing-to-compact' | 'interrupted';
  trigger: CompactionTrigger;
  /** The context before, in tokens. */
  tokensBefore: number;
  /** The context after, in tokens (estimated); `tokensBefore` when nothing was compacted. */
  tokensAfter: number;
  /** The handoff summary that now opens the history. */
  summary?: string;
  /** How many messages the summary replaced. */
  summarizedMessages: number;
  /** How many messages were kept verbatim. */
  keptMessages: number;
  /** What the summary call cost. */
  usage: Usage;
  /** Set when the oldest messages were dropped because no summary could be written (see `CompactionEndEvent.trimmed`). */
  trimmed?: true;
}

/**
 * The agent's records a compaction restates verbatim after the summary; with `summarized`, the
 * messages the summary replaces, also the skills loaded there (the `Skill` tool's answers).
 */
export function compactionState(core: AgentCore, summarized: readonly Message[] = []): CompactionState {
  const state = core.state;
  const skills = loadedSkills(summarized);
  return {
    ...(skills.length ? { loadedSkills: skills } : {}),
    // The mode in force, not only its own: a subagent is capped by its type and its parent (a parent
    // switched to plan mode makes it plan), and the restated records must say so.
    permissionMode: core.mode,
    ...(core.options.planModeInstructions !== undefined ? { planModeInstructions: core.options.planModeInstructions } : {}),
    ...(state.plan ? { plan: state.plan } : {}),
    todos: state.todos,
    pendingApprovals: core.pendingApprovals(),
    sessionRules: state.sessionRules,
  };
}

/**
 * The `Skill` tool's successful answers in `messages`, the latest per skill, in load order, after
 * the skills an earlier compaction restated there (carried over as they were written; only from
 * user messages, never from the model's text).
 */
function loadedSkills(messages: readonly Message[]): string[] {
  const calls = new Map<string, string>();
  const answers = new Map<string, string>();
  const restated: string[] = [];
  // Only where a compaction put them (the restated state of the opening message): the model's
  // text, or a user's message, may open with the heading too, and must not become instructions
  // restated as the agent's records.
  if (messages[0] !== undefined) {
    for (const block of restatedStateInOpening(messages[0])) {
      if (block.text.startsWith(LOADED_SKILLS_HEADING)) restated.push(block.text.slice(LOADED_SKILLS_HEADING.length).trim());
    }
  }
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_use' && (block as ToolUseBlock).name === SKILL_TOOL_NAME) {
        const skill = ((block as ToolUseBlock).input as { skill?: unknown } | null)?.skill;
        if (typeof skill === 'string') calls.set((block as ToolUseBlock).id, skill);
      } else if (block.type === 'tool_result') {
        const result = block as ToolResultBlock;
        const skill = calls.get(result.tool_use_id);
        if (skill === undefined || result.is_error === true) continue;
        answers.delete(skill);
        answers.set(skill, toolResultText(result));
      }
    }
  }
  return [...restated, ...answers.values()];
}

/**
 * Compacts the history: `PreCompact` hooks (more instructions, or a veto of an automatic
 * compaction), a handoff summary of everything before a cut where no call is open (asked of the
 * model with the session's own prefix, so it reads the cache), then one `checkpoint` entry — the
 * compaction boundary — whose state opens with the summary and the agent's records restated
 * (plan, todos, mode, pending approvals, session rules) and the user's latest message when it
 * was summarized (see `keepLatestPrompt`), followed by the kept messages. Resume
 * folds from that boundary; the entries before it keep the full history. Interrupted (`signal`)
 * before that entry, it replaces nothing and returns `skipped: 'interrupted'`.
 * @throws CompactionError when the summary cannot be written (the history is unchanged).
 * @throws SessionConflictError, LeaseLostError or SessionWriteError when the store refused the
 *   boundary (it is stored before this resolves, so nothing goes on from a compaction that is not).
 */
export async function compactHistory(core: AgentCore, options: CompactHistoryOptions): Promise<CompactionResult> {
  const { trigger, signal } = options;
  const settings = core.context.settings.compaction;
  const tokensBefore = core.contextUsage().tokens;
  const given = [settings.instructions, options.instructions].filter((text): text is string => typeof text === 'string' && text.trim() !== '');
  const unchanged = (skipped: CompactionResult['skipped']): CompactionResult => ({
    compacted: false,
    skipped,
    trigger,
    tokensBefore,
    tokensAfter: tokensBefore,
    summarizedMessages: 0,
    keptMessages: core.state.messages.length,
    usage: emptyUsage(),
  });

  if (signal.aborted) return unchanged('interrupted');
  const pre = await runHooksUnchecked({
    event: 'PreCompact',
    hooks: core.options.hooks,
    signal,
    input: Object.assign(hookInputBase(core), { trigger, tokensBefore, window: core.context.window, ...(given.length ? { instructions: given.join('\n\n') } : {}) }),
  });
  reportHookErrors(core, pre.errors);
  if (signal.aborted) return unchanged('interrupted');
  if (trigger === 'auto' && pre.outputs.some((output) => output?.block)) return unchanged('blocked');
  for (const output of pre.outputs) if (typeof output?.instructions === 'string' && output.instructions.trim() !== '') given.push(output.instructions);
  const instructions = given.length ? given.join('\n\n') : undefined;

  const messages = core.state.messages;
  const found = findCompactionCut(messages, { keepTokens: trigger === 'reactive' ? 0 : settings.keepTokens, estimate: core.context.tracker.messageTokens });
  if (found === undefined) return unchanged('nothing-to-compact');
  // Never the user's latest message only in the summary: kept as it is when the next turn
  // answers it, else restated after the summary.
  const { cut, restated } = keepLatestPrompt(messages, found, core.context.compactAt, modeReminderTexts(core));

  core.emit({ type: 'compaction-start', trigger, tokensBefore });
  const usage = emptyUsage();
  const estimated = { outputTokens: 0 };
  const failed = (failure: CompactionError) => {
    options.countUsage?.(usage, estimated.outputTokens);
    core.emit({ type: 'compaction-end', trigger, tokensBefore, tokensAfter: tokensBefore, summarizedMessages: 0, keptMessages: messages.length, usage, error: failure });
  };
  let summary: string | undefined;
  let kept: LatestPromptCut = { cut, ...(restated ? { restated } : {}) };
  let trimmed = false;
  try {
    summary = await writeSummary(core, messages, cut, instructions, signal, usage, estimated);
  } catch (error) {
    if (!signal.aborted) {
      // Every way of shortening the summary request was refused as too long. A reactive
      // compaction is all that keeps the session going: as a last resort it drops the oldest
      // messages (keeping what an automatic compaction keeps verbatim) instead of failing.
      const trim = trigger === 'reactive' && refusedForSize(error) ? trimCut(core, messages) : undefined;
      if (trim) {
        kept = trim;
        summary = trimmedNote(trim.cut);
        trimmed = true;
      } else {
        const failure = CompactionError.isInstance(error)
          ? error
          : trigger === 'reactive' && refusedForSize(error)
            ? tooLongToTrim(trigger, error)
            : new CompactionError(`The compaction (${trigger}) failed: the model could not write the summary (${describeThrown(error)}). The history is unchanged.`, { cause: error });
        failed(failure);
        // A failed automatic compaction would fail again next turn, at the same price.
        if (trigger === 'auto') noteCompaction(core, tokensBefore);
        throw failure;
      }
    }
  }
  // Interrupted while the summary was written (also by a model that finished regardless): nothing is replaced.
  if (signal.aborted || summary === undefined) {
    failed(new CompactionError(`The compaction (${trigger}) was interrupted before the summary was written. The history is unchanged.`, { cause: signal.reason }));
    return unchanged('interrupted');
  }

  const compacted = buildCompactedHistory({ messages, cut: kept.cut, summary, state: compactionState(core, messages.slice(0, kept.cut)), ...(kept.restated ? { latestPrompt: kept.restated } : {}) });
  // What is left must fit the window, or dropping the oldest messages lost them for nothing; and a
  // summary that leaves a history which cannot be sent, longer than the one it replaces (a model
  // gone astray), would replace the conversation for nothing. (A compaction that shrank the
  // history without making it fit is kept: a "prompt is too long" refusal compacts it further.)
  const left = core.context.measure({ system: core.system, tools: core.toolDefinitions as never, messages: compacted.messages }).tokens;
  if (left >= core.context.window && (trimmed || left > tokensBefore)) {
    const failure = trimmed ? tooLongToTrim(trigger, undefined, left, core.context.window) : summaryTooLong(trigger, left, tokensBefore, core.context.window);
    failed(failure);
    // A failed automatic compaction would fail again next turn, at the same price.
    if (trigger === 'auto') noteCompaction(core, tokensBefore);
    throw failure;
  }
  options.countUsage?.(usage, estimated.outputTokens);
  const cutAt = kept.cut;
  const mergedFirst = messages[cutAt]?.role === 'user' ? 1 : 0;
  const next: SessionState = {
    ...core.state,
    messages: compacted.messages,
    messageUsage: [null, ...core.state.messageUsage.slice(cutAt + mergedFirst)],
    prefix: { system: core.system, toolNames: core.toolDefinitions.map((tool) => tool.name) },
    compactions: (core.state.compactions ?? 0) + 1,
  };
  core.commit({
    kind: 'checkpoint',
    state: next,
    reason: 'compaction',
    compaction: { trigger, summary, tokensBefore, summarizedMessages: compacted.summarized, keptMessages: compacted.kept, ...(trimmed ? { trimmed: true as const } : {}) },
  });
  const after = core.contextUsage();
  core.emit({ type: 'compaction-end', trigger, tokensBefore, tokensAfter: after.tokens, summarizedMessages: compacted.summarized, keptMessages: compacted.kept, usage, ...(trimmed ? { trimmed: true as const } : {}) });
  if (trimmed) core.emit({ type: 'warning', source: 'compaction', message: trimmedWarning(compacted.summarized, tokensBefore, after.tokens) });
  core.emit({ type: 'context-usage', turn: options.turn ?? 0, usage: after });
  const resumesAt = noteCompaction(core, after.tokens);
  if (resumesAt !== undefined) core.emit({ type: 'warning', source: 'compaction', message: didNotHelp(trigger, after.tokens, core.context.compactAt, resumesAt) });
  // The boundary is stored before anything goes on from it: a turn sent on a compacted history the
  // store refused (another instance wrote first, the lease was lost) would be paid for and lost,
  // and a process killed in that turn would leave the paid summary unstored, to be asked for again.
  if (core.journal) {
    const failure = await flushWriteError(core);
    if (failure) {
      // The events of the compaction were not delivered (their entries were not stored): the host
      // is told it failed, the stored history being the one before it.
      core.emit({ type: 'compaction-end', trigger, tokensBefore, tokensAfter: tokensBefore, summarizedMessages: 0, keptMessages: messages.length, usage, error: failure });
      throw failure;
    }
  }
  const post = await runHooksUnchecked({ event: 'PostCompact', hooks: core.options.hooks, signal, input: Object.assign(hookInputBase(core), { trigger, summary, tokensBefore, tokensAfter: after.tokens, ...(trimmed ? { trimmed: true as const } : {}) }) });
  reportHookErrors(core, post.errors);
  return { compacted: true, trigger, tokensBefore, tokensAfter: after.tokens, summary, summarizedMessages: compacted.summarized, keptMessages: compacted.kept, usage, ...(trimmed ? { trimmed: true as const } : {}) };
}

/**
 * Every mode reminder the loop may have queued on a prompt. A restated prompt leaves them out: the
 * restated state before it says the mode as it is now (a plan-mode reminder after it would tell
 * the model it is still planning once the plan was approved).
 */
function modeReminderTexts(core: AgentCore): Set<string> {
  const planModeInstructions = core.options.planModeInstructions;
  return new Set(PERMISSION_MODES.map((mode) => modeReminder(mode, { planModeInstructions })));
}

/**
 * Where to drop the oldest messages when no summary can be written: the cut an automatic
 * compaction would make (keeping `keepTokens` of recent history verbatim, where no call is open),
 * with the user's latest message kept or restated; undefined when no cut drops anything.
 */
function trimCut(core: AgentCore, messages: readonly Message[]): LatestPromptCut | undefined {
  const found = findCompactionCut(messages, { keepTokens: core.context.settings.compaction.keepTokens, estimate: core.context.tracker.messageTokens });
  if (found === undefined || found === 0) return undefined;
  // No summary carries the user's latest message here: it is kept or restated whatever its size
  // (whether what is left fits is checked after).
  const kept = keepLatestPrompt(messages, found, Number.POSITIVE_INFINITY, modeReminderTexts(core));
  return kept.cut > 0 ? kept : undefined;
}

/** The note that takes the dropped messages' place, for the model. */
function trimmedNote(dropped: number): string {
  return (
    `The ${dropped} earliest message(s) of this conversation were dropped without a summary: the conversation had grown too long for the context window, even to summarize. ` +
    'What they held is no longer available to you. The records below (plan, todos, permissions) are current; if you need something from the dropped part, ask the user.'
  );
}

function trimmedWarning(dropped: number, tokensBefore: number, tokensAfter: number): string {
  return (
    `The history (${groupDigits(tokensBefore)} tokens) was refused as too long and could not be summarized (even the summary request was too long), so its ${dropped} oldest message(s) were dropped, leaving ${groupDigits(tokensAfter)} tokens; ` +
    'the model is told. The session store keeps the full history. To avoid this, let automatic compaction run earlier (a lower context.compaction threshold) or keep tool results shorter.'
  );
}

/** The history cannot be made to fit: not even the most recent part a compaction keeps. */
function tooLongToTrim(trigger: CompactionTrigger, cause?: unknown, left?: number, window?: number): CompactionError {
  const size = left !== undefined && window !== undefined ? ` (about ${groupDigits(left)} tokens left against a window of ${groupDigits(window)})` : '';
  return new CompactionError(
    `The compaction (${trigger}) failed: the prompt is too long for the context window, no summary could be written (even the summary request was too long), and dropping the oldest messages cannot make it fit: ` +
      `the user's latest message with the most recent exchange is too long by itself${size}. The history is unchanged. ` +
      'Send a shorter message, lower context.compaction.keepTokens, use a model with a larger context window, or start a new session.',
    { ...(cause !== undefined ? { cause } : {}), promptTooLong: true },
  );
}

/** The summary made the history longer than before and past the window: refused, nothing replaced. */
function summaryTooLong(trigger: CompactionTrigger, left: number, before: number, window: number): CompactionError {
  return new CompactionError(
    `The compaction (${trigger}) failed: the summary the model wrote is longer than what it replaces; the compacted history would take about ${groupDigits(left)} tokens (${groupDigits(before)} before), which does not fit the context window of ${groupDigits(window)} tokens. The history is unchanged. ` +
      'Compact again with instructions for a shorter summary, or lower context.compaction.keepTokens.',
  );
}

function didNotHelp(trigger: CompactionTrigger, tokens: number, threshold: number, resumesAt: number): string {
  return (
    `The compaction (${trigger}) left the context at ${groupDigits(tokens)} tokens, at or past the automatic compaction threshold of ${groupDigits(threshold)}, ` +
    `so compacting again now would not help: automatic compaction pauses until the context reaches ${groupDigits(resumesAt)} tokens (a "prompt is too long" refusal still compacts). ` +
    'If this repeats, lower context.compaction.keepTokens, ask for a shorter summary (instructions), or raise the threshold.'
  );
}

/**
 * Asks the model for the handoff summary of `messages[0..cut)`. When the request is itself too
 * long (a reactive compaction summarizes a prompt the API just refused), it is asked again with
 * the old tool results of the summarized part cleared (never the user's answers to questions, nor
 * the host's `clearing.excludeTools`), then with only its first message and its later half (see
 * `startAndLaterHalf`). A call that fails in the middle of its stream is retried as a turn is
 * (`maxStreamRetries` in all, each after the `streamRetryBackoff` wait).
 */
async function writeSummary(core: AgentCore, messages: readonly Message[], cut: number, instructions: string | undefined, signal: AbortSignal, usage: Usage, estimated: { outputTokens: number }): Promise<string> {
  // An answer the model stopped as a refusal is withheld from what the model is sent
  // (refusedAnswers): from the summary request too, which would otherwise go on from it.
  const refused = core.state.endedOnRefusal && core.options.refusedAnswers !== 'keep' ? refusedAnswerAt(messages) : undefined;
  if (refused !== undefined && refused >= 1 && refused < cut) {
    messages = messages.slice(0, refused);
    cut = refused;
  }
  // The user's answers to questions are the user's words, and the host's excluded tools are never
  // cleared: the summary must see them (a loaded skill is restated from the history itself).
  const excludeTools = [...(core.context.settings.clearing?.excludeTools ?? []), ...questionTools(core)];
  const clearOld = () => clearStaleToolResults(messages.slice(0, cut), { keepRecentTurns: 0, minimumResultChars: 0, excludeTools }).messages;
  const attempts: Array<() => Message[]> = [
    () => [...messages],
    clearOld,
    () => startAndLaterHalf(clearOld()),
  ];
  let lastError: unknown;
  // Failures in the middle of a stream are retried as a turn's are (maxStreamRetries in all, after
  // the streamRetryBackoff wait): a compaction retried at once into an overloaded API fails again.
  const maxRetries = core.options.maxStreamRetries ?? 2;
  const backoff = core.options.streamRetryBackoff;
  let retries = 0;
  for (const [index, history] of attempts.entries()) {
    const source = history();
    const end = index === 0 ? cut : source.length;
    const request = buildSummaryRequest({ system: core.system, tools: core.toolDefinitions as never, messages: source, cut: end, ...(instructions ? { instructions } : {}) });
    for (;;) {
      // What the call reported so far: counted if it is given up or fails midway (it was billed).
      const partial = new PartialUsage();
      try {
        // Raced: an interrupt ends the compaction at once even when a Model ignores the signal.
        const raced = await raceAbort(() => callModel(core, { ...request, messages: sendableHistory(request.messages, core.toolDefinitions), tools: core.toolDefinitions, signal }, partial), signal);
        if (raced.aborted) throw signal.reason;
        const response = raced.value;
        partial.clear();
        addUsage(usage, response.usage);
        const text = response.message.content.filter((block): block is TextBlock => block.type === 'text').map((block) => block.text).join('');
        return summaryOf(text, response.stopReason);
      } catch (error) {
        partial.countInto((billed, estimatedOutputTokens) => {
          addUsage(usage, billed);
          estimated.outputTokens += estimatedOutputTokens;
        });
        if (signal.aborted) throw error;
        // HTTP-level failures were already retried by the adapter, as for a turn (see streamTurn).
        if (isStreamRetryable(error) && retries < maxRetries) {
          retries++;
          const delayMs = streamRetryDelay(backoff, retries, error);
          if (delayMs > 0) {
            // Raced too: interrupt() and close() end the wait at once, whatever a host's sleep does.
            await raceAbort(() => waitBeforeStreamRetry(backoff, delayMs, signal), signal);
            if (signal.aborted) throw signal.reason;
          }
          continue;
        }
        // Too long for the window, or too large a body (HTTP 413): a shorter form may pass.
        if (!refusedForSize(error)) throw error;
        lastError = error;
        break;
      }
    }
  }
  throw lastError;
}

/**
 * The summary in a whole answer. An answer cut off by the output limit, a refusal, a
 * `<summary>` never closed, or an answer that stopped for a tool call before closing a
 * `<summary>` is no handoff: replacing the history by it would lose the work.
 */
function summaryOf(text: string, stopReason: ModelResponse['stopReason']): string {
  if (stopReason === 'max_tokens') {
    throw new CompactionError(
      'The compaction failed: the summary was cut off by the output limit (stop reason "max_tokens"). The history is unchanged. Compact again with instructions for a shorter summary, or raise the model\'s maxTokens.',
    );
  }
  if (stopReason === 'refusal') throw new CompactionError('The compaction failed: the model refused to write the summary (stop reason "refusal"). The history is unchanged.');
  // A tool call or a paused server tool ends the answer before it is finished: only a summary
  // already closed by </summary> is whole.
  if ((stopReason === 'tool_use' || stopReason === 'pause_turn') && !/<summary>[\s\S]*?<\/summary>/.test(text)) {
    throw new CompactionError(
      `The compaction failed: the model stopped to call a tool (stop reason "${stopReason}") instead of finishing the summary, so what it wrote is not the whole handoff. The history is unchanged. Compact again, with instructions that ask for the summary only.`,
    );
  }
  if (unclosedHandoffSummary(text)) {
    throw new CompactionError(`The compaction failed: the summary opens <summary> but never closes it (stop reason "${stopReason ?? 'none'}"), so it is cut off. The history is unchanged.`);
  }
  const summary = extractHandoffSummary(text);
  if (summary === undefined) throw new CompactionError('The compaction failed: the model answered the summary request without any text. The history is unchanged.');
  return summary;
}

async function callModel(core: AgentCore, request: ModelRequest & { signal: AbortSignal }, partial: PartialUsage): Promise<ModelResponse> {
  let response: ModelResponse | undefined;
  for await (const event of core.options.model.stream(request)) {
    // Given up (see writeSummary): the stream is read no further.
    if (request.signal.aborted) throw request.signal.reason;
    if (event.type === 'response') response = event.response;
    else if (event.type === 'text-delta') partial.streamed(event.text);
    else if (event.type === 'thinking-delta') partial.streamed(event.thinking);
    else if (event.type === 'tool-input-delta') partial.streamed(event.partialJson);
    // The usage so far, counted if the call does not complete (see ModelStreamEvent).
    else if (event.type === 'usage') {
      const problem = partial.record(event.usage);
      if (problem) throw new CompactionError(`The compaction failed: the model "${core.options.model.modelId}" yielded a usage event whose ${problem}.`);
    }
  }
  if (!response) throw new CompactionError(`The compaction failed: the model "${core.options.model.modelId}" ended the summary stream without a response.`);
  return response;
}
