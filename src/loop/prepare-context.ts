import { sendableHistory } from './sendable-history.js';
import { SKILL_TOOL_NAME } from '../skills/skill-tool.js';
import type { AgentCore } from '../runtime/agent-core.js';
import { clearStaleToolResults, spillHandle, type ContextUsage } from '../context/index.js';
import type { ContentBlock, ToolResultBlock } from '../model/messages.js';
import type { Usage } from '../model/usage.js';
import type { CompactionResult } from './compact-history.js';
import { runCompaction } from './run-compaction.js';
import { checkpointAfterClearing } from './checkpoint-after-clearing.js';
import { autoCompactionDue } from './compaction-pause.js';
import { questionTools } from './question-tools.js';
import type { RunAbort } from './run-abort.js';

/**
 * Before a model call: measures the next request (exactly, with the token counting endpoint when
 * the model counts; else the calibrated estimate), clears stale tool results past the clearing
 * threshold, and compacts past the compaction threshold (unless paused after a compaction that did
 * not help, see `noteCompaction`).
 * @param countUsage - told what a compaction's summary calls used, also when it failed.
 * @param turn - the run's turn this follows (its last `turn-start`; 0 before the first), carried
 *   by the `context-usage` event after a clearing or a compaction.
 * @returns undefined when nothing asynchronous was needed (no exact count, no compaction); else
 * a promise of the compaction, when one ran (rejected with CompactionError when it failed).
 */
export function prepareContext(core: AgentCore, abort: RunAbort, countUsage: (usage: Usage) => void, turn: number): Promise<CompactionResult | undefined> | undefined {
  // Without a model that counts and short of the compaction threshold (most turns), no promise.
  // Interrupted while counting: nothing more (the loop ends the run).
  if (core.context.counts) return measureExactly(core, abort).then((usage) => (abort.aborted ? undefined : afterMeasure(core, usage, abort, countUsage, turn)));
  return afterMeasure(core, core.context.measure(core.context.request(core.system, core.toolDefinitions, core.state)), abort, countUsage, turn);
}

/** Clears past the clearing threshold, then compacts past the compaction threshold (the promise of that compaction). */
function afterMeasure(core: AgentCore, measured: ContextUsage, abort: RunAbort, countUsage: (usage: Usage) => void, turn: number): Promise<CompactionResult | undefined> | undefined {
  const { settings } = core.context;
  let usage = measured;
  if (settings.clearing && usage.fraction >= settings.clearing.triggerFraction) usage = clearStale(core, usage, turn);
  if (!settings.compaction.enabled || !settings.compaction.auto) return undefined;
  // Not again and again after a compaction that did not help: each one is a model call.
  if (!autoCompactionDue(core, usage)) return undefined;
  return runCompaction(core, { trigger: 'auto', signal: abort.signal, countUsage, turn }).then((result) => (result.compacted ? result : undefined));
}

/**
 * The size of the next request: counted by the model when it counts (a failed count falls back to
 * the estimate). The count is raced with the run's interruption, so `interrupt()` and `close()`
 * never wait on a `countTokens` that ignores its signal; a count given as a plain object rather
 * than a promise counts too.
 */
async function measureExactly(core: AgentCore, abort: RunAbort): Promise<ContextUsage> {
  const request = core.context.request(core.system, core.toolDefinitions, core.state);
  try {
    // Counted as it will be sent: past the images a request may carry, the oldest are notes.
    const counting = core.options.model.countTokens!({ system: core.system, tools: core.toolDefinitions, messages: sendableHistory(core.state.messages, core.toolDefinitions), signal: abort.signal });
    const { inputTokens } = await abort.race(Promise.resolve(counting));
    return core.context.tracker.observeCount(request, inputTokens);
  } catch {
    return core.context.measure(request);
  }
}

/**
 * Replaces old tool results by stubs (recorded as one `results-cleared` entry, applied by the
 * same reducer on load) and announces it.
 */
function clearStale(core: AgentCore, before: ContextUsage, turn: number): ContextUsage {
  const clearing = core.context.settings.clearing!;
  const messages = core.state.messages;
  const spilled = core.state.spilled;
  const result = clearStaleToolResults(messages, {
    // Never the results the model has not read yet (those answering its last message): cleared
    // before it saw them, it would be told to make the calls again.
    keepRecentTurns: Math.max(1, clearing.keepRecentTurns),
    // A loaded skill's instructions are the model's to follow for the rest of the conversation,
    // and the user's answers to a question (AskUserQuestion) are the user's words: no call gets
    // them again.
    excludeTools: [...clearing.excludeTools, SKILL_TOOL_NAME, ...questionTools(core)],
    minimumResultChars: clearing.minimumResultChars,
    clearAtLeastChars: clearing.clearAtLeastChars,
    spilledHandle: (toolUseId) => (spilled?.[spillHandle(toolUseId)] ? spillHandle(toolUseId) : undefined),
  });
  if (result.cleared.length === 0) return before;
  const ids = new Set(result.cleared.map((cleared) => cleared.toolUseId));
  const stubs: Array<{ toolUseId: string; content: string }> = [];
  result.messages.forEach((message, index) => {
    if (message === messages[index] || typeof message.content === 'string') return;
    for (const block of message.content as ContentBlock[]) {
      const answer = block as ToolResultBlock;
      if (block.type === 'tool_result' && ids.has(answer.tool_use_id) && typeof answer.content === 'string') stubs.push({ toolUseId: answer.tool_use_id, content: answer.content });
    }
  });
  core.commit({ kind: 'results-cleared', stubs });
  checkpointAfterClearing(core, result.cleared);
  const after = core.contextUsage();
  core.emit({ type: 'tool-results-cleared', cleared: result.cleared, tokensBefore: before.tokens, tokensAfter: after.tokens });
  core.emit({ type: 'context-usage', turn, usage: after });
  return after;
}
