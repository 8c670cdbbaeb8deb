import type PQueue from 'p-queue';
import type { AgentCore } from '../agent/agent-core.js';
import { PromptBlockedError } from '../errors/prompt-blocked-error.js';
import { SessionWriteError } from '../errors/session-write-error.js';
import type { RunResult, RunStatus } from '../events/run-result.js';
import { runHooks } from '../hooks/run-hooks.js';
import type { ContentBlock, Message, TextBlock, ToolUseBlock } from '../model/messages.js';
import { addUsage, emptyUsage } from '../model/usage.js';
import type { PermissionDecision } from '../permissions/types.js';
import { applyApprovalDecision, type ApprovalDecision } from './apply-approval-decision.js';
import { executeTools, reportHookErrors } from './execute-tools.js';
import { batchResults, deferredCalls } from './open-batch.js';
import { refuseOpenCalls } from './refuse-call.js';
import { estimateCost } from './pricing.js';
import { prepareRequest } from './prepare-request.js';
import { openBatch, resolveTurn } from './resolve-turn.js';
import { checkStopConditions } from './stop-conditions.js';
import { streamTurn } from './stream-turn.js';

/** What starts a run: a prompt, or the host's answer to a pending approval (continue the open batch). */
export interface RunInput {
  prompt?: string | ContentBlock[];
  approval?: { toolUseId: string; decision: ApprovalDecision };
}

/** Per-run plumbing the agent provides. */
export interface RunContext {
  runId: string;
  signal: AbortSignal;
  queue: PQueue;
}

const SUPERSEDED = 'The user sent a new message instead of answering this permission request, so the call was not run.';
const INTERRUPTED = 'The user interrupted the run before this tool call was answered; it did not run.';
const STOPPED = 'The user stopped the run when denying another call of this batch, so this call was not run.';
const MAX_STOP_HOOK_CONTINUATIONS = 3;

/** Runs the agentic loop until a stop condition. Never throws: failures end with status `error`. */
export async function runLoop(core: AgentCore, input: RunInput, context: RunContext): Promise<RunResult> {
  const { signal } = context;
  const usage = emptyUsage();
  const denials: PermissionDecision[] = [];
  let turns = 0;
  let firstTouched = core.messages.length;
  let lastText = '';
  let stopContinuations = 0;
  let paused = false;
  const costUsd = () => (core.price ? estimateCost(usage, core.price) : undefined);
  const markTouched = () => {
    firstTouched = Math.min(firstTouched, Math.max(0, core.messages.length - (core.messages.at(-1)?.role === 'user' ? 1 : 0)));
  };

  /**
   * Ends the run once everything recorded is stored: a store that failed to write turns any
   * ending into an `error`, so a host never sees a run as done while its transcript is not.
   */
  const finish = async (status: RunStatus, error?: Error): Promise<RunResult> => {
    await core.flush();
    const failure = core.journal?.failure;
    if (failure && !error) return settle('error', new SessionWriteError(core.sessionId, failure));
    return settle(status, error);
  };

  const settle = (status: RunStatus, error?: Error): RunResult => {
    const result: RunResult = {
      status,
      runId: context.runId,
      sessionId: core.sessionId,
      text: lastText,
      usage,
      costUsd: costUsd(),
      turns,
      messages: core.messages.slice(firstTouched),
      permissionDenials: denials,
      pendingApprovals: status === 'awaiting-approval' && core.openBatch ? deferredCalls(core.openBatch).map((call) => call.approval!) : [],
    };
    if (error) result.error = error;
    if (error) core.emit({ type: 'error', error, fatal: true });
    core.emit({ type: 'run-end', result });
    return result;
  };

  /** Answers every unanswered call of the open batch with an error and appends the results. */
  const closeBatch = (message: string) => {
    const batch = core.openBatch;
    if (!batch) return;
    refuseOpenCalls(core, batch, message);
    markTouched();
    core.appendUserContent([...batchResults(batch), ...core.takeReminders()]);
    core.openBatch = undefined;
  };

  core.emit({ type: 'run-start', runId: context.runId, prompt: typeof input.prompt === 'string' ? input.prompt : undefined });
  try {
    if (input.approval && core.openBatch) {
      const call = core.openBatch.calls.find((candidate) => candidate.toolUseId === input.approval!.toolUseId && candidate.state === 'deferred');
      if (call) await applyApprovalDecision(core, core.openBatch, call, input.approval.decision, signal);
    }
    if (input.prompt !== undefined) {
      const blocked = await submitPrompt(core, input.prompt, signal);
      if (blocked) return await finish('error', blocked);
      markTouched();
    }
    for (;;) {
      const batch = core.openBatch;
      if (batch) {
        await resolveTurn(core, batch, signal, denials);
        // A tool runs only once the call that asked for it is stored: after a crash, the
        // transcript then shows the call, and resume answers it instead of the model asking again.
        await core.flush();
        if (core.journal?.failure) {
          const error = new SessionWriteError(core.sessionId, core.journal.failure);
          closeBatch(`This tool call was not run: ${error.message}`);
          return await finish('error', error);
        }
        if (!batch.interruptRequested) await executeTools(core, batch, signal, context.queue);
        if (signal.aborted) {
          closeBatch(INTERRUPTED);
          return await finish('interrupted');
        }
        if (batch.interruptRequested) {
          // The host denied a call and asked to stop: nothing else of the batch runs.
          closeBatch(STOPPED);
          return await finish('interrupted');
        }
        if (deferredCalls(batch).length > 0) return await finish('awaiting-approval');
        markTouched();
        core.appendUserContent([...batchResults(batch), ...core.takeReminders()]);
        core.openBatch = undefined;
      }
      const stop = checkStopConditions(core, { turns, costUsd: costUsd(), signal });
      if (stop) return await finish(stop);
      // No model call on top of a transcript that failed to store.
      await core.flush();
      if (core.journal?.failure) return await finish('error', new SessionWriteError(core.sessionId, core.journal.failure));

      turns++;
      core.emit({ type: 'turn-start', turn: turns });
      const response = await streamTurn(core, prepareRequest(core, signal), core.options.maxStreamRetries ?? 2);
      addUsage(usage, response.usage);
      // An empty text block would make every later request invalid: the API refuses them.
      if (response.message.content.some((block) => block.type === 'text' && (block as TextBlock).text === '')) {
        response.message.content = response.message.content.filter((block) => !(block.type === 'text' && (block as TextBlock).text === ''));
      }
      if (response.message.content.length === 0) {
        // Nothing to keep: an empty assistant message would make the next request invalid.
        if (response.stopReason === 'pause_turn') continue;
        return await finish('completed');
      }
      // After pause_turn the model continues the same message: join it, so no two assistant
      // messages are adjacent.
      core.pushAssistant(response.message, response.id, paused);
      paused = response.stopReason === 'pause_turn';
      const text = textOf(response.message);
      if (text) lastText = text;
      const next = openBatch(response.message.content);
      for (const call of next?.calls ?? []) {
        core.emit({ type: 'tool-call', toolUseId: call.toolUseId, toolName: call.toolName, input: call.rawInput });
      }
      core.emit({
        type: 'turn-end',
        turn: turns,
        usage: response.usage,
        stopReason: response.stopReason,
        message: response.message,
        toolCalls: next ? response.message.content.filter((block): block is ToolUseBlock => block.type === 'tool_use') : [],
      });
      if (next) {
        core.openBatch = next;
        continue;
      }
      if (response.stopReason === 'pause_turn') continue;
      if (stopContinuations < MAX_STOP_HOOK_CONTINUATIONS) {
        const reason = await stopHookReason(core, stopContinuations > 0, signal);
        if (reason !== undefined) {
          stopContinuations++;
          core.appendUserContent([...core.takeReminders(), { type: 'text', text: reason }]);
          continue;
        }
      }
      return await finish('completed');
    }
  } catch (error) {
    if (signal.aborted) {
      closeBatch(INTERRUPTED);
      return await finish('interrupted');
    }
    closeBatch(`The tool call could not be answered because the run failed: ${error instanceof Error ? error.message : String(error)}`);
    return await finish('error', error instanceof Error ? error : new Error(String(error)));
  }
}

function textOf(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .filter((block): block is TextBlock => block.type === 'text')
    .map((block) => block.text)
    .join('');
}

/**
 * Adds the prompt to the history: answers a batch left open by pending approvals (they are
 * superseded), runs `SessionStart` (first prompt) and `UserPromptSubmit` hooks, and appends one
 * user message. Returns an error when a hook blocked the prompt.
 */
async function submitPrompt(core: AgentCore, prompt: string | ContentBlock[], signal: AbortSignal): Promise<PromptBlockedError | undefined> {
  const context: TextBlock[] = [];
  const source = core.sessionStartSource;
  if (source !== undefined) {
    core.sessionStartSource = undefined;
    const start = await runHooks({ event: 'SessionStart', hooks: core.options.hooks, signal, input: { sessionId: core.sessionId, source } });
    reportHookErrors(core, start.errors);
    for (const output of start.outputs) if (output?.additionalContext) context.push({ type: 'text', text: output.additionalContext });
  }
  const submit = await runHooks({
    event: 'UserPromptSubmit',
    hooks: core.options.hooks,
    signal,
    input: { sessionId: core.sessionId, prompt: typeof prompt === 'string' ? prompt : textOf({ role: 'user', content: prompt }) },
  });
  reportHookErrors(core, submit.errors);
  const blocking = submit.outputs.find((output) => output?.block);
  if (blocking) return new PromptBlockedError(blocking.reason);
  for (const output of submit.outputs) if (output?.additionalContext) context.push({ type: 'text', text: output.additionalContext });

  const blocks: ContentBlock[] = [];
  const batch = core.openBatch;
  if (batch) {
    refuseOpenCalls(core, batch, SUPERSEDED);
    blocks.push(...batchResults(batch));
    core.openBatch = undefined;
  }
  blocks.push(...core.takeReminders(), ...context);
  if (typeof prompt === 'string') blocks.push({ type: 'text', text: prompt });
  else blocks.push(...prompt);
  core.appendUserContent(blocks);
  return undefined;
}

async function stopHookReason(core: AgentCore, stopHookActive: boolean, signal: AbortSignal): Promise<string | undefined> {
  const stop = await runHooks({ event: 'Stop', hooks: core.options.hooks, signal, input: { sessionId: core.sessionId, stopHookActive } });
  reportHookErrors(core, stop.errors);
  const again = stop.outputs.find((output) => output?.continue);
  return again ? (again.reason ?? 'A Stop hook asked you to continue working.') : undefined;
}
