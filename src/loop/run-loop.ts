import { recordRequestPrefix } from './record-request-prefix.js';
import { runEndError } from '../state/run-end-error.js';
import { copyToolInput } from '../hooks/copy-tool-input.js';
import type { AgentCore } from '../runtime/agent-core.js';
import type { PlanVerification, RunResult, RunStatus, SubagentRunSummary } from '../events/run-result.js';
import { normalizeAssistantMessage, type RefusedToolCall } from '../history/normalize-assistant-message.js';
import type { AssistantMessage, ContentBlock, Message, TextBlock, ToolUseBlock } from '../model/messages.js';
import { addUsage, emptyUsage, type Usage } from '../model/usage.js';
import { batchResults, isBatchDone, type OpenBatch } from '../state/index.js';
import { executeTools } from './execute-tools.js';
import type { RunContext } from './loop-run-context.js';
import { estimateCost } from '../model/pricing.js';
import { prepareRequest } from './prepare-request.js';
import { prepareContext } from './prepare-context.js';
import { openSubagentsEnded } from './open-subagents.js';
import { CompactionError } from '../errors/compaction-error.js';
import { refuseCall, refuseOpenCalls } from './refuse-call.js';
import { callsWithoutTools } from './calls-without-tools.js';
import { resolveTurn, type TurnDecisions } from './resolve-turn.js';
import { RunMessages } from './run-messages.js';
import { RunSpend } from '../model/run-spend.js';
import { checkStopConditions } from './stop-conditions.js';
import { checkOutput, checkOutputCall, cutOffOutput, outputForTools, outputInstruction, STRUCTURED_OUTPUT_TOOL_NAME, type OutputCheck, type OutputRequest } from './structured-output.js';
import { failSpan, SPAN_KIND_CLIENT, withSpan } from '../telemetry/index.js';
import { BUDGET_SPENT_COMPACTING, modelTurn, totalInput, type TurnRequest } from './model-turn.js';
import { StructuredOutputError } from '../errors/structured-output-error.js';
import { cutOffReason, cutOffWarning, isCutOff } from './cut-off-answer.js';
import type { ModelResponse, StopDetails, StopReason } from '../model/model.js';
import type { ContextUsage } from '../context/index.js';
import { describeThrown, toError } from '../errors/describe-thrown.js';
import { answerApproval, type ApprovalAnswer } from './answer-approval.js';
import { runsStopHooks, stopHookReason } from './stop-hook-reason.js';
import { submitPrompt } from './submit-prompt.js';
import { textOf } from './text-of.js';
import { writeError } from './write-error.js';

/** What starts a run: a prompt, the host's answer to a pending approval (continue the open batch), or neither (`agent.continue()`). */
export interface RunInput {
  prompt?: string | ContentBlock[];
  /** The approval answered, addressed by its id and path (`[toolUseId]` for the agent's own calls). */
  approval?: ApprovalAnswer;
  /** The run's final answer must validate against a schema (`RunResult.output`). */
  output?: OutputRequest;
}

export type { RunContext };

const INTERRUPTED = 'The user interrupted the run before this tool call was answered; it did not run.';
const STOPPED = 'The user stopped the run when denying another call of this batch, so this call was not run.';
/**
 * The result of every call of an answer the model stopped as a refusal: the API asks not to go on
 * from a refused answer as it is, so none of its calls runs (nor is asked about).
 */
const REFUSED_ANSWER = 'This tool call was not run: the model stopped its answer as a refusal (stop reason "refusal"), so no call of that answer runs.';
const MAX_STOP_HOOK_CONTINUATIONS = 3;
/**
 * A run's error as its span records it: a StructuredOutputError's issues quote what the model
 * answered, which a span never carries; the span gets the same error without them.
 */
function tracedError(error: Error): Error {
  if (!StructuredOutputError.isInstance(error) || error.issues.length === 0) return error;
  return new StructuredOutputError({ issues: [], responseText: '', attempts: error.attempts, refused: error.refused });
}

/** The result of a valid StructuredOutput call. */
const OUTPUT_RECEIVED = 'Answer received.';
const OUTPUT_FAILED = `This tool call was not run: the run ended because no ${STRUCTURED_OUTPUT_TOOL_NAME} answer was valid within the retries it allows.`;

/** The failure of a run asked for a typed output whose model stopped its answer (`responseText`) as a refusal. */
function refusedOutput(responseText: string, attempts: number): StructuredOutputError {
  return new StructuredOutputError({ issues: [`the answer was not given: ${cutOffReason('refusal')}`], responseText, attempts, refused: true });
}

/** The tool calls of a message. */
function toolUsesOf(message: Message): ToolUseBlock[] {
  return Array.isArray(message.content) ? message.content.filter((block): block is ToolUseBlock => block.type === 'tool_use') : [];
}

/** The check of a StructuredOutput call made beside `others` other calls: an invalid answer. */
function besideOtherCalls(others: number): OutputCheck {
  return {
    ok: false,
    issues: [`${STRUCTURED_OUTPUT_TOOL_NAME} was called beside ${others} other tool call(s), not on its own`],
    retryPrompt: `Call ${STRUCTURED_OUTPUT_TOOL_NAME} on its own, once your other tool calls are answered.`,
  };
}

/**
 * Runs the agentic loop until a stop condition, inside an `invoke_agent` span when the host
 * traces. Never throws: failures end with status `error`.
 */
export function runLoop(core: AgentCore, input: RunInput, context: RunContext): Promise<RunResult> {
  const tracer = core.options.tracer;
  if (!tracer) return runTurns(core, input, context);
  return withSpan(
    tracer,
    `invoke_agent ${core.agentId ?? 'agent'}`,
    {
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.provider.name': core.options.model.provider,
        'gen_ai.request.model': core.options.model.modelId,
        'gen_ai.conversation.id': core.sessionId,
        'gen_ai.agent.id': core.agentId,
        'agent_harness.run.id': context.runId,
      },
    },
    async (span) => {
      const result = await runTurns(core, input, Object.assign({}, context, { span }));
      span.setAttribute('agent_harness.run.status', result.status);
      span.setAttribute('agent_harness.run.turns', result.turns);
      span.setAttribute('gen_ai.usage.input_tokens', totalInput(result.usage));
      span.setAttribute('gen_ai.usage.output_tokens', result.usage.outputTokens);
      if (result.error) failSpan(span, tracedError(result.error));
      return result;
    },
  );
}

async function runTurns(core: AgentCore, given: RunInput, outerContext: RunContext): Promise<RunResult> {
  const { abort } = outerContext;
  const input = given.output ? { ...given, output: outputForTools(given.output, core.toolDefinitions) } : given;
  const usage = emptyUsage();
  /** This agent's own model calls (`usage` adds its subagents'). */
  const ownUsage = emptyUsage();
  const subagents: SubagentRunSummary[] = [];
  /** The part of `usage.outputTokens` estimated for calls given up midway (see `PartialUsage`). */
  let estimatedOutputTokens = 0;
  let subagentCostUsd = 0;
  let subagentsPriced = true;
  let planVerification: PlanVerification | undefined;
  // A subagent counts into its parent's total; a run of its own (the outermost, a background task) starts one at its budget.
  const spend = outerContext.spend ?? new RunSpend(core.options.maxBudgetUsd);
  // Object.assign, not `{ ...outerContext, spend, reportSubagent }`: on Node 20 a spread followed
  // by a key the source lacks makes a new hidden class every time (~1 µs and ~100 bytes that
  // outlive young-generation GCs, per added key; see bench/README.md, ninth round).
  const context: RunContext = Object.assign({}, outerContext, {
    spend,
    reportSubagent: (summary: SubagentRunSummary, nested: readonly SubagentRunSummary[] = []) => {
      subagents.push(summary, ...nested);
      addUsage(usage, summary.usage);
      estimatedOutputTokens += summary.estimatedOutputTokens ?? 0;
      if (summary.costUsd === undefined) subagentsPriced = false;
      else subagentCostUsd += summary.costUsd;
    },
  });
  const decisions: TurnDecisions = { denials: [], stopRequested: false };
  const runMessages = new RunMessages();
  let turns = 0;
  let lastText = '';
  /** The stop reason of the run's last model answer (undefined before the first). */
  let lastStopReason: StopReason | null | undefined;
  /** What the API said about that stop (`stop_details`), when it said anything. */
  let lastStopDetails: StopDetails | undefined;
  let stopContinuations = 0;
  let output: unknown;
  let outputAttempts = 0;
  const costUsd = () => (core.price && subagentsPriced ? estimateCost(ownUsage, core.price) + subagentCostUsd : undefined);
  /**
   * Counts one of this agent's own model calls (a turn, or a compaction's summary, failed or not)
   * in the run's usage and cost, and in the run tree's running total the budget is checked against.
   * `estimated`: the part of its output tokens estimated, for a call given up midway.
   */
  const countUsage = (callUsage: Usage, estimated = 0) => {
    estimatedOutputTokens += estimated;
    addUsage(usage, callUsage);
    addUsage(ownUsage, callUsage);
    spend.add(callUsage, core.price);
  };
  const lastMessage = (): Message | undefined => core.state.messages[core.state.messages.length - 1];
  const tracked = (change: () => void) => {
    const before = lastMessage();
    const length = core.state.messages.length;
    change();
    runMessages.note(before, lastMessage(), core.state.messages.length === length);
  };

  /**
   * Ends the run once everything recorded is stored: a store that failed to write turns any
   * ending into an `error`, so a host never sees a run as done while its transcript is not.
   */
  const finish = async (status: RunStatus, error?: Error): Promise<RunResult> => {
    // A subagent of this run still ending (its call was not waited for after an interrupt)
    // announces its end before this run's.
    const subagentsEnding = openSubagentsEnded(core);
    if (subagentsEnding) await subagentsEnding;
    if (status === 'completed' && !error && core.verifyOnCompletion) {
      try {
        planVerification = await core.verifyOnCompletion({ signal: abort.signal, ...(context.reportSubagent ? { reportSubagent: context.reportSubagent } : {}) });
      } catch (failure) {
        // Stopped by the host (interrupt(), the run's signal, close()): the run ends as the host
        // asked, not `completed` with an error it caused; the plan stays unverified for next time.
        if (abort.aborted) status = 'interrupted';
        else core.emit({ type: 'error', error: toError(failure), fatal: false });
      }
    }
    if (!core.journal) return settle(status, error);
    // The run's end is recorded before the wait: a final answer recorded in the same step of the
    // loop (no await between them, see below) goes in the same append. Its events wait for the
    // store's answer, and a write that failed (this one or an earlier one, so the end is not
    // stored) still turns the run into an `error`.
    recordRunEnd(status, error);
    await core.flush();
    const failure = core.writeFailure;
    if (failure && !error) return settle('error', writeError(core, failure), true);
    return settle(status, error, true);
  };

  const recordRunEnd = (status: RunStatus, error: Error | undefined) => {
    core.commit(error ? { kind: 'run-end', runId: context.runId, status, usage, error: runEndError(error) } : { kind: 'run-end', runId: context.runId, status, usage });
  };

  /** The run's result, its events, and (unless `endRecorded`) its `run-end` entry. */
  const settle = (status: RunStatus, error?: Error, endRecorded = false): RunResult => {
    const result: RunResult = {
      status,
      runId: context.runId,
      sessionId: core.sessionId,
      text: lastText,
      usage,
      costUsd: costUsd(),
      turns,
      messages: runMessages.list,
      permissionDenials: decisions.denials,
      pendingApprovals: status === 'awaiting-approval' ? core.pendingApprovals() : [],
    };
    // Optional fields set only when present (no spreads of conditional objects on every run).
    if (input.output) {
      if (status === 'completed') result.output = output;
      result.outputAttempts = outputAttempts + 1;
    }
    if (subagents.length) result.subagents = subagents;
    if (estimatedOutputTokens > 0) result.estimatedOutputTokens = estimatedOutputTokens;
    if (lastStopReason !== undefined) result.stopReason = lastStopReason;
    if (lastStopDetails !== undefined) result.stopDetails = lastStopDetails;
    if (planVerification) result.planVerification = planVerification;
    const running = core.runningBackgroundTasks();
    if (running.length) result.backgroundTasks = running;
    if (error) result.error = error;
    if (error) core.emit({ type: 'error', error, fatal: true });
    // Otherwise only result.stopReason would tell that the answer the run ended on is not whole.
    else if (status === 'completed' && isCutOff(lastStopReason)) core.emit({ type: 'warning', source: 'model', message: cutOffWarning(lastStopReason, lastStopDetails) });
    if (!endRecorded) recordRunEnd(status, error);
    core.emit({ type: 'run-end', result });
    return result;
  };

  /**
   * Adds the model's answer to the history (after pause_turn the state joins it to the last
   * message) and announces it and its calls, answering the calls it could not keep as sent.
   */
  const keepAnswer = (message: AssistantMessage, response: ModelResponse, measured: ContextUsage, refused: readonly RefusedToolCall[], uses: readonly ToolUseBlock[]) => {
    tracked(() => core.pushAssistant(message, response.id, response.usage, response.stopReason));
    core.emit({ type: 'context-usage', turn: turns, usage: measured });
    // A copy of each input: the block is the history's, and a listener's change in place must not reach it or the call.
    for (const use of uses) core.emit({ type: 'tool-call', toolUseId: use.id, toolName: use.name, input: copyToolInput(use.input) });
    const batch = core.state.openBatch;
    for (const refusal of refused) {
      const call = batch?.calls.find((candidate) => candidate.toolUseId === refusal.toolUseId);
      if (call && call.state !== 'done') refuseCall(core, call, refusal.message);
    }
  };

  let outputFailure: StructuredOutputError | undefined;
  /**
   * Checks the final answer against the run's output schema: true when the run may end (valid,
   * or out of retries — then `outputFailure` is set); false after asking the model again.
   */
  const checkFinalOutput = (text: string): boolean => {
    // A refusal is not asked again (going on from it as it is would be refused again): no output.
    if (lastStopReason === 'refusal') {
      outputFailure = refusedOutput(text, outputAttempts + 1);
      return true;
    }
    // A cut-off answer is never taken, even when a part of it happens to validate.
    const check = isCutOff(lastStopReason) ? cutOffOutput(lastStopReason, input.output!) : checkOutput(text, input.output!);
    if (check.ok) {
      output = check.value;
      return true;
    }
    if (outputAttempts < input.output!.retries) {
      outputAttempts++;
      tracked(() => core.appendUserContent([...core.takeReminders(), { type: 'text', text: check.retryPrompt }]));
      return false;
    }
    outputFailure = new StructuredOutputError({ issues: check.issues, responseText: text, attempts: outputAttempts + 1 });
    return true;
  };

  /** Answers every unanswered call of the open batch with an error and appends the results. */
  const closeBatch = (message: string) => {
    const batch = core.state.openBatch;
    if (!batch) return;
    refuseOpenCalls(core, batch, message);
    tracked(() => core.appendUserContent([...batchResults(batch), ...core.takeReminders()]));
  };

  /**
   * The run's answer given with the StructuredOutput tool, among `uses` (the calls of the batch's
   * message): the loop answers it itself. Given beside other calls it is an invalid answer too,
   * counted against outputRetries (else a model doing so every turn would run to maxTurns). Ends
   * the run (valid, or out of retries); undefined when the run goes on.
   */
  const answerOutputCall = (batch: OpenBatch, uses: readonly ToolUseBlock[]): Promise<RunResult> | undefined => {
    const outputUse = input.output?.mode === 'tool' ? uses.find((use) => use.name === STRUCTURED_OUTPUT_TOOL_NAME) : undefined;
    const outputCall = outputUse && batch.calls.find((candidate) => candidate.toolUseId === outputUse.id && candidate.state !== 'done');
    if (!outputUse || !outputCall) return undefined;
    const check = uses.length > 1 ? besideOtherCalls(uses.length - 1) : checkOutputCall(outputUse.input, input.output!);
    if (check.ok) {
      output = check.value;
      core.answerCall(outputCall, { type: 'tool_result', tool_use_id: outputCall.toolUseId, content: OUTPUT_RECEIVED });
      tracked(() => core.appendUserContent(batchResults(batch)));
      return finish('completed');
    }
    refuseCall(core, outputCall, check.retryPrompt);
    // Another StructuredOutput call of the same answer is the same invalid answer: told the same,
    // not left to be refused as a tool that does not exist (the model was sent it).
    for (const use of uses) {
      if (use === outputUse || use.name !== STRUCTURED_OUTPUT_TOOL_NAME) continue;
      const call = batch.calls.find((candidate) => candidate.toolUseId === use.id && candidate.state !== 'done');
      if (call) refuseCall(core, call, check.retryPrompt);
    }
    if (outputAttempts >= input.output!.retries) {
      outputFailure = new StructuredOutputError({ issues: check.issues, responseText: JSON.stringify(outputUse.input), attempts: outputAttempts + 1 });
      // The run ends here: the other calls of the batch are not run.
      refuseOpenCalls(core, batch, OUTPUT_FAILED);
      tracked(() => core.appendUserContent(batchResults(batch)));
      return finish('error', outputFailure);
    }
    outputAttempts++;
    return undefined;
  };

  /**
   * A run without a prompt (`continue()`, an approval's answer) on a session a process left
   * mid-answer: the StructuredOutput call the model made before it died, unanswered in the open
   * batch, is checked as the answer (not refused as a tool that does not exist); one the history
   * already answered as received is the answer. Either way no model call asks for it again.
   */
  const takeStoredOutput = (): Promise<RunResult> | undefined => {
    const { messages } = core.state;
    const batch = core.state.openBatch;
    // With an open batch the history ends with the calls; without, with their results.
    const calling = messages[messages.length - (batch ? 1 : 2)];
    if (calling?.role !== 'assistant') return undefined;
    const uses = toolUsesOf(calling);
    const use = uses.length === 1 && uses[0]!.name === STRUCTURED_OUTPUT_TOOL_NAME ? uses[0]! : undefined;
    if (!use) return undefined;
    let received: boolean;
    if (batch) {
      const call = batch.calls.find((candidate) => candidate.toolUseId === use.id);
      if (call?.state !== 'done') return answerOutputCall(batch, uses);
      received = call.result?.is_error !== true;
    } else {
      const answered = messages[messages.length - 1];
      received = !input.approval && Array.isArray(answered?.content) && answered.content.some((block) => block.type === 'tool_result' && block.tool_use_id === use.id && block.is_error !== true);
    }
    const check = received ? checkOutputCall(use.input, input.output!) : undefined;
    if (!check?.ok) return undefined;
    output = check.value;
    if (batch && isBatchDone(batch)) tracked(() => core.appendUserContent(batchResults(batch)));
    return finish('completed');
  };

  core.leaseLost = undefined;
  core.nestedStopRequested = false;
  core.commit({ kind: 'run-start', runId: context.runId });
  core.emit({ type: 'run-start', runId: context.runId, prompt: typeof input.prompt === 'string' ? input.prompt : undefined });
  // A session's first run records the prefix its requests are sent with here, in the run's first
  // append, not in a write of its own beside the first model call; a later run whose prefix
  // changed says so (a prompt-cache warning) and records the new one.
  recordRequestPrefix(core);
  try {
    // A refused answer's calls left open (a snapshot taken before they were answered): answered as
    // a fresh refusal answers them, never run.
    if (core.state.openBatch && (core.state.openBatch.refused || core.state.endedOnRefusal)) closeBatch(REFUSED_ANSWER);
    if (input.prompt === undefined && core.state.endedOnRefusal) {
      // Without a prompt the run ends on that refusal: no model call on top of it. Its text is the refused answer's.
      lastStopReason = 'refusal';
      const { messages } = core.state;
      let index = messages.length - 1;
      while (index >= 0 && messages[index]!.role !== 'assistant') index--;
      if (index >= 0) lastText = textOf(messages[index]!);
      if (input.output) outputFailure = refusedOutput(lastText, 1);
      return await finish(outputFailure ? 'error' : 'completed', outputFailure);
    }
    if (input.approval) {
      const refused = await answerApproval(core, input.approval, context, decisions);
      if (refused) return await finish('error', refused);
    }
    if (input.prompt === undefined && !input.approval) {
      // agent.continue(): carry on only what a crash left unfinished.
      if (core.pendingApprovals().length > 0) return await finish('awaiting-approval');
      if (!core.state.openBatch && lastMessage()?.role !== 'user') return await finish('completed');
    }
    if (input.prompt !== undefined) {
      // A call a resume left allowed (an approved ExitPlanMode, safe to run again) runs before the
      // prompt supersedes the batch, so the approval it carries is not lost.
      const left = core.state.openBatch;
      if (left && !abort.aborted) {
        const executing = executeTools(core, left, context);
        if (executing) await executing;
      }
      const instruction = input.output && !input.output.native ? outputInstruction(input.output) : undefined;
      const blocked = await submitPrompt(core, input.prompt, abort, tracked, instruction);
      if (blocked) return await finish('error', blocked);
    }
    if (input.prompt === undefined && input.output?.mode === 'tool') {
      // Resumed after a process died: an answer the model gave before it is taken, not asked for again.
      const resumed = takeStoredOutput();
      if (resumed) return await resumed;
    }
    for (;;) {
      const batch = core.state.openBatch;
      // Reminders for a fresh context an approved plan asked for (the results' message consumes them).
      let carried: TextBlock[] | undefined;
      if (batch) {
        // Most batches are decided without a promise (no hook, no question to the host).
        const resolving = resolveTurn(core, batch, abort, decisions);
        if (resolving) await resolving;
        // A tool runs only once the call that asked for it is stored: after a crash, the
        // transcript then shows the call, and resume answers it instead of the model asking again.
        if (core.journal) await core.flush();
        if (core.writeFailure) {
          const error = writeError(core, core.writeFailure);
          closeBatch(`This tool call was not run: ${error.message}`);
          return await finish('error', error);
        }
        if (!decisions.stopRequested) {
          // A batch of synchronous tools (no hooks, no timeout) runs without a promise. Its last
          // answer waits for the message below, which every way on from here appends or flushes.
          core.holdBatchEnd = true;
          try {
            const executing = executeTools(core, batch, context);
            if (executing) await executing;
          } finally {
            core.holdBatchEnd = false;
          }
        }
        const lost = core.leaseLost;
        if (lost) {
          // A call did not start because the session's lease is gone: another worker may hold the
          // session. The answers so far are stored if the store still takes them (the lease may only
          // have run out by the host's clock), then nothing more is written, not even the run's end:
          // the next holder continues the session, and the calls still waiting for the host wait on.
          if (core.journal) {
            await core.flush();
            core.journal.abandon(lost);
          }
          return await finish('error', lost);
        }
        if (abort.aborted) {
          closeBatch(INTERRUPTED);
          return await finish('interrupted');
        }
        // A subagent's call the host denied with `interrupt` stops this run too.
        if (core.nestedStopRequested) decisions.stopRequested = true;
        if (decisions.stopRequested) {
          // The host denied a call and asked to stop: nothing else of the batch runs.
          closeBatch(STOPPED);
          return await finish('interrupted');
        }
        if (!isBatchDone(batch)) return await finish('awaiting-approval');
        const reminders = core.takeReminders();
        // Going to a fresh context, the reminders go there, not into the history it replaces.
        if (core.state.contextReset) carried = reminders;
        tracked(() => core.appendUserContent([...batchResults(batch), ...(carried ? [] : reminders)]));
      }
      // An approved plan asked for a fresh context: it starts once the batch is answered.
      if (core.state.contextReset) tracked(() => core.startFreshContext(carried));
      const stop = checkStopConditions(core, { turns, spend, abort });
      if (stop) return await finish(stop);
      // No model call on top of a transcript that failed to store (no store: nothing to wait for).
      if (core.journal) await core.flush();
      if (core.writeFailure) return await finish('error', writeError(core, core.writeFailure));

      const preparing = prepareContext(core, abort, countUsage, turns);
      if (preparing) {
        await preparing.catch((error: unknown) => {
          // A failed automatic compaction leaves the history as it was; the request may still fit,
          // and if it does not, the refusal compacts reactively.
          if (!CompactionError.isInstance(error) || abort.aborted) throw error;
          core.emit({ type: 'error', error, fatal: false });
          return undefined;
        });
        // Interrupted while compacting (the compaction replaced nothing): no turn starts.
        if (abort.aborted) {
          closeBatch(INTERRUPTED);
          return await finish('interrupted');
        }
      }
      // A compaction's summary call may have spent the rest of the budget: checked again before the turn's call.
      if (spend.exhausted) return await finish('budget-exceeded');

      turns++;
      core.emit({ type: 'turn-start', turn: turns });
      const turn: TurnRequest = { number: turns, request: prepareRequest(core, abort, input.output) };
      const tracer = core.options.tracer;
      const response = tracer
        ? await withSpan(
            tracer,
            `chat ${core.options.model.modelId}`,
            { kind: SPAN_KIND_CLIENT, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': core.options.model.provider, 'gen_ai.request.model': core.options.model.modelId } },
            (span) => modelTurn(core, turn, input.output, abort, countUsage, spend, span),
          )
        : await modelTurn(core, turn, input.output, abort, countUsage, spend, undefined);
      // A reactive compaction's summary call spent the rest of the budget: the call is not made again.
      if (response === BUDGET_SPENT_COMPACTING) return await finish('budget-exceeded');
      const { request } = turn;
      countUsage(response.usage);
      lastStopReason = response.stopReason;
      lastStopDetails = response.stopDetails;
      // Kept only in a shape every later request is accepted with (no blank text, unique ids,
      // bounded inputs); calls that cannot be kept as sent are answered with an error below.
      // Ids used anywhere in the history are taken (the API wants them unique in a request).
      const takenIds = core.toolUseIds.idsIn(core.state.messages);
      const normalized = normalizeAssistantMessage(response.message, { takenIds });
      // A request without tools: a call in the answer is kept as a note (the API refuses later requests with tool blocks).
      const { message, refused } = request.tools.length === 0 ? callsWithoutTools(normalized) : normalized;
      if (message.content.length === 0) {
        // Nothing to keep: an empty assistant message would make the next request invalid.
        if (response.stopReason === 'pause_turn') continue;
        if (input.output && !checkFinalOutput('')) continue;
        return await finish(outputFailure ? 'error' : 'completed', outputFailure);
      }
      // The context the call took, from its reported usage (before the answer joins the history).
      const measured = core.context.tracker.observeUsage(core.context.request(request.system, request.tools, core.state), response.usage, message);
      const uses = message.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
      // A refused answer ends the run as a refused text answer does, its calls answered (so that
      // the next request carries none unanswered) and none run: a complete call of it is not the
      // model's intent, and going on from it as it is would be refused again. Stored in the same
      // append as the answer: a crash in between would leave the calls open for continue() to run.
      if (uses.length > 0 && response.stopReason === 'refusal') {
        core.inOneWrite(() => {
          keepAnswer(message, response, measured, refused, uses);
          closeBatch(REFUSED_ANSWER);
        });
      } else keepAnswer(message, response, measured, refused, uses);
      // The text the model streamed: a call kept as a note (callsWithoutTools) is not part of it.
      const text = textOf(normalized.message);
      if (text) lastText = text;
      const next = core.state.openBatch;
      core.emit({ type: 'turn-end', turn: turns, usage: response.usage, stopReason: response.stopReason, message, toolCalls: uses });
      if (next) {
        const ended = answerOutputCall(next, uses);
        if (ended) return await ended;
        continue;
      }
      if (response.stopReason === 'pause_turn') continue;
      // Without a Stop hook nothing is awaited from the answer to finish(), which records the run's
      // end before the answer's append starts: one write for both, before the result. A Stop hook
      // is awaited (the host's hook may take its time; the answer is stored meanwhile).
      if (stopContinuations < MAX_STOP_HOOK_CONTINUATIONS) {
        const reason = runsStopHooks(core) ? await stopHookReason(core, stopContinuations > 0, abort, response.stopReason) : undefined;
        // Interrupted while a Stop hook ran (or by a listener of the answer's events): the run
        // ends interrupted, not completed.
        if (abort.aborted) return await finish('interrupted');
        if (reason !== undefined) {
          stopContinuations++;
          tracked(() => core.appendUserContent([...core.takeReminders(), { type: 'text', text: reason }]));
          continue;
        }
      }
      if (input.output && !checkFinalOutput(text)) continue;
      return await finish(outputFailure ? 'error' : 'completed', outputFailure);
    }
  } catch (error) {
    if (abort.aborted) {
      closeBatch(INTERRUPTED);
      return await finish('interrupted');
    }
    closeBatch(`The tool call could not be answered because the run failed: ${describeThrown(error)}`);
    return await finish('error', toError(error));
  }
}
