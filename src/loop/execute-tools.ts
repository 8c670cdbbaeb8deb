import { mcpOriginRefusal } from './mcp-origin-refusal.js';
import { runHooksUnchecked } from '../hooks/run-hooks.js';
import { isReadOnlyCallUnchecked } from '../permissions/is-read-only-call.js';
import type { AgentCore } from '../runtime/agent-core.js';
import { onAbort } from './on-abort.js';
import type { RunAbort } from './run-abort.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import { copyToolInput } from '../hooks/copy-tool-input.js';
import { hasHooks } from '../hooks/has-hooks.js';
import type { PermissionResult } from '../types/permission.js';
import type { BatchCall, NestedRun, OpenBatch } from '../state/index.js';
import type { ToolResultBlock } from '../model/messages.js';
import { isThenable } from '../tools/is-thenable.js';
import { isToolSuspension, type Tool, type ToolExecuteArgs, type ToolReturn, type ToolRunContext, type ToolSuspension } from '../tools/types.js';
import type { RunContext } from './loop-run-context.js';
import { refuseCall } from './refuse-call.js';
import { lostLease } from './lost-lease.js';
import { toToolResultContent, truncateText, type ToolResultContent } from './tool-result-content.js';
import { rememberWellFormedText } from '../model/well-formed-value.js';
import { resultCharLimit } from './result-char-limit.js';
import { failSpanWithoutText, withSpan } from '../telemetry/index.js';
import { describeThrown } from '../errors/describe-thrown.js';

const INTERRUPTED = 'The user interrupted this tool call before it finished; it may have had partial effects. Do not assume it completed.';
const NOT_STARTED = 'The user interrupted the run before this tool call started; it did not run.';
/** For a call that did not start because the session's lease was lost (another worker may hold the session). */
const LEASE_LOST_NOT_STARTED = "The worker's hold on this session (its lease) ran out before this tool call started; it did not run.";
const PLAN_MODE_GUARD =
  'This call was not run: plan mode is active, and only read-only tools run while planning. Present your plan with ExitPlanMode first.';

/**
 * Executes the allowed calls of a batch that come before any call still waiting (for a decision,
 * the host, or a nested run): consecutive concurrency-safe calls run in parallel (through a
 * p-queue bounded by `maxToolConcurrency`), every other call alone, in order. Results are stored
 * on each call, so their order is the `tool_use` order whatever order they finish in.
 */
export function executeTools(core: AgentCore, batch: OpenBatch, context: RunContext): Promise<void> | undefined {
  return executeFrom(core, runnableCalls(batch), 0, context);
}

/**
 * Runs the groups of `allowed` from `start` on. A call that finishes synchronously (a tool that
 * answers at once, no hook) takes no promise; the rest goes on after the first group that is
 * asynchronous. Calls not started (an interrupt) are answered at the end.
 */
function executeFrom(core: AgentCore, allowed: BatchCall[], start: number, context: RunContext): Promise<void> | undefined {
  let index = start;
  // A call that found the lease lost stops the batch: the rest are answered below.
  while (index < allowed.length && !context.abort.aborted && !core.leaseLost) {
    const first = allowed[index]!;
    const group: BatchCall[] = [first];
    index++;
    if (isConcurrencySafe(core, first)) {
      while (index < allowed.length && isConcurrencySafe(core, allowed[index]!)) group.push(allowed[index++]!);
    }
    const { queue } = context;
    // A group that fits the bound while the queue is idle runs directly: the queue would start
    // every call at once anyway, a turn later and with a closure and a promise per call more.
    let pending: Promise<unknown> | undefined;
    if (group.length === 1) pending = tracedCall(core, first, context, undefined);
    else if (queue.idle && group.length <= queue.concurrency) pending = Promise.all(group.map((call) => tracedCall(core, call, context, undefined)));
    else pending = Promise.all(group.map((call) => queue.add(async () => tracedCall(core, call, context, undefined))));
    if (pending) {
      const next = index;
      return pending.then(() => executeFrom(core, allowed, next, context));
    }
  }
  for (const call of allowed) if (call.state === 'allowed') refuseCall(core, call, core.leaseLost ? LEASE_LOST_NOT_STARTED : NOT_STARTED);
  return undefined;
}

/**
 * Continues a suspended call with the host's answer to an approval inside its nested run: the
 * tool's `resume` returns the call's result, or suspends it again.
 */
export async function resumeCall(
  core: AgentCore,
  call: BatchCall,
  approval: { id: string; path: string[]; decision: Exclude<PermissionResult, { behavior: 'defer' }> },
  context: RunContext,
): Promise<void> {
  await tracedCall(core, call, context, approval);
}

/** A tool call inside an `execute_tool` span when the host traces. */
function tracedCall(core: AgentCore, call: BatchCall, context: RunContext, approval: ResumeApproval | undefined): Promise<void> | undefined {
  const tracer = core.options.tracer;
  if (!tracer) return runCall(core, call, context, approval);
  return withSpan(
    tracer,
    `execute_tool ${call.toolName}`,
    { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': call.toolName, 'gen_ai.tool.call.id': call.toolUseId, 'gen_ai.tool.type': 'function' } },
    async (span) => {
      await runCall(core, call, Object.assign({}, context, { span }), approval);
      const suspended = call.state === 'suspended';
      span.setAttribute('agent_harness.tool.outcome', suspended ? 'suspended' : call.result?.is_error ? 'error' : 'ok');
      // Not the result's text: a tool's error may quote a secret (the host reads it on `tool-result`).
      if (call.result?.is_error) failSpanWithoutText(span, 'tool_error');
    },
  );
}

/** The allowed calls that may run now: those before the first call still waiting, so calls never run out of order. */
function runnableCalls(batch: OpenBatch): BatchCall[] {
  const runnable: BatchCall[] = [];
  for (const call of batch.calls) {
    if (call.state === 'deferred' || call.state === 'undecided' || call.state === 'suspended') break;
    if (call.state === 'allowed') runnable.push(call);
  }
  return runnable;
}

function isConcurrencySafe(core: AgentCore, call: BatchCall): boolean {
  return core.tools.get(call.toolName)?.concurrencySafe ?? false;
}

/**
 * Plan mode never writes: checked when the call starts, whatever was decided before, with the
 * pipeline's reading of a tool's per-call opinion (only `true` is read-only; a check that throws
 * is "not read-only").
 */
function refusedByPlanMode(core: AgentCore, tool: Tool, input: unknown): boolean {
  return core.mode === 'plan' && !isReadOnlyCallUnchecked(tool, input);
}

type ResumeApproval = Parameters<typeof resumeCall>[2];

/** What the model is told for a call whose tool this agent no longer has. */
function toolGone(toolName: string, suspended: boolean): string {
  return suspended
    ? `No tool named "${toolName}" exists any more, so the call it suspended (and what it waited on) could not continue; it was stopped.`
    : `No tool named "${toolName}" exists any more, so the call was not run.`;
}

/** What the abort and timeout contenders of a call resolve to: values no tool can return. */
const ABORTED: unique symbol = Symbol('aborted');
const TIMED_OUT: unique symbol = Symbol('timed out');

const noop = (): void => undefined;

/**
 * Runs one allowed call and answers it. A tool that answers synchronously is done here, in this
 * turn of the event loop (nothing could interrupt it), without a promise unless a `PostToolUse`
 * hook or a failure needs one; only a pending promise races the run's abort and the tool's timeout.
 */
function runCall(core: AgentCore, call: BatchCall, context: RunContext, approval: ResumeApproval | undefined): Promise<void> | undefined {
  const tool = core.tools.get(call.toolName);
  // Gone since the call was decided or suspended (a session resumed by an agent made without it:
  // no `agents`, an MCP server left out): answered, never a crash that ends the run.
  if (tool === undefined) {
    refuseCall(core, call, toolGone(call.toolName, approval !== undefined));
    return undefined;
  }
  // Allowed while its name meant another MCP tool (the server's tools changed since, or before a
  // restart): only the tool the call was decided for runs.
  if (call.mcpTool !== undefined) {
    const moved = mcpOriginRefusal(call.toolName, tool, call.mcpTool);
    if (moved !== undefined) {
      refuseCall(core, call, moved);
      return undefined;
    }
  }
  // A suspended call keeps the input it started with.
  const input = call.input;
  // The last line of defence for "plan mode never writes": whatever was decided earlier (an
  // approval given before the host switched to plan mode, say), nothing that writes starts now.
  if (refusedByPlanMode(core, tool, input)) {
    refuseCall(core, call, PLAN_MODE_GUARD);
    return undefined;
  }
  // Allowed before it could no longer be used (an MCP server's listing changed while the host
  // was asked, or before an approval was answered), or with an input that writes (a hook's or the
  // host's edit) where only reading is allowed: it does not start now.
  const refusal = core.toolRefusal?.(tool, input);
  if (refusal !== undefined) {
    refuseCall(core, call, refusal);
    return undefined;
  }
  if (approval && typeof tool.resume !== 'function') {
    refuseCall(core, call, `Tool "${tool.name}" suspended this call but cannot resume it (it has no resume), so the call was stopped.`);
    return undefined;
  }
  const { abort } = context;
  // A signal of its own only when the call can time out; otherwise the run's signal serves (and
  // saves creating one per call, a measurable share of a turn).
  const controller = tool.timeoutMs === undefined ? undefined : new AbortController();
  const started = performance.now();
  const run: { -readonly [K in keyof ToolRunContext]: ToolRunContext[K] } = { runId: context.runId, sink: context.sink, agentId: core.agentId, parentToolUseId: context.parentToolUseId, span: context.span };
  if (context.reportSubagent) run.reportSubagent = context.reportSubagent;
  if (context.spend) run.spend = context.spend;
  // The call's own signal, else the run's, made when the tool reads it (see RunAbort.lendSignal).
  const fields = { input, toolUseId: call.toolUseId, agent: core.toolContext, run };
  const args: ToolExecuteArgs<unknown> = controller ? { ...fields, signal: controller.signal } : abort.lendSignal(fields);
  // Optional fields only when present (set, not spread: this runs for every call).
  if (call.heldUpdates) args.permissionUpdates = call.heldUpdates;
  if (call.hostAnswer) args.hostAnswer = call.hostAnswer;
  const ending: CallEnding = { core, call, tool, input, abort, started, note: call.note };
  core.running.add(call.toolUseId);
  let settled: Promise<void> | undefined;
  let raced = false;
  try {
    // Interrupted before it started (a parallel call's host, say): the tool is not run at all.
    if (abort.aborted) settled = failCall(core, call, input, NOT_STARTED, new ToolExecutionError(tool.name, NOT_STARTED), abort);
    // The session's lease is known lost or past its end (a pause since the call was stored, say):
    // another worker may hold the session by now, and would answer or run this call itself.
    else if (lostLease(core)) settled = failCall(core, call, input, LEASE_LOST_NOT_STARTED, new ToolExecutionError(tool.name, LEASE_LOST_NOT_STARTED), abort);
    else {
      // Started now, in this turn of the event loop: the plan-mode check above is current.
      const returned: unknown = approval ? tool.resume!({ ...args, nested: call.nested as NestedRun, approval }) : tool.execute(args);
      raced = isThenable(returned);
      settled = raced ? raceCall(ending, returned, controller) : settleCall(ending, returned);
    }
  } catch (error) {
    // Thrown by the tool itself (raceCall, async, never throws here): `raced` is still false.
    settled = callFailed(ending, error);
  }
  if (!settled) {
    core.running.delete(call.toolUseId);
    return undefined;
  }
  // A tool's own promise leaves `running` when its race ends (raceCall); a hook or a failure here.
  return raced ? settled : releasedAfter(core, call, settled);
}

/** `settled`, then the call leaves `running` (one await: no more ticks than the call had before). */
async function releasedAfter(core: AgentCore, call: BatchCall, settled: Promise<void>): Promise<void> {
  try {
    await settled;
  } finally {
    core.running.delete(call.toolUseId);
  }
}

/** What answering a started call needs. */
interface CallEnding {
  core: AgentCore;
  call: BatchCall;
  tool: Tool;
  input: unknown;
  abort: RunAbort;
  /** `performance.now()` when the tool started. */
  started: number;
  /** A note for the model to put before the result (the host edited the input). */
  note: string | undefined;
}

/** A tool's promise against the run's abort and the tool's timeout; the timer and the listener are always cleared. */
async function raceCall(ending: CallEnding, returned: unknown, controller: AbortController | undefined): Promise<void> {
  const { core, call, tool, input, abort } = ending;
  // A tool that returned a promise is raced against the run's signal: made now if it was not.
  const runSignal = abort.signal;
  let stopListening: () => void = noop;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  try {
    const execution = Promise.resolve(returned);
    let releaseOnAbort: () => void = noop;
    const aborted = new Promise<typeof ABORTED>((resolve) => (releaseOnAbort = () => resolve(ABORTED)));
    stopListening = onAbort(runSignal, () => {
      controller?.abort(runSignal.reason);
      releaseOnAbort();
    });
    const timeout =
      tool.timeoutMs === undefined
        ? undefined
        : new Promise<typeof TIMED_OUT>((resolve) => {
            timer = setTimeout(() => {
              timedOut = true;
              controller?.abort(new ToolExecutionError(tool.name, `timed out after ${tool.timeoutMs} ms`, { timedOut: true }));
              resolve(TIMED_OUT);
            }, tool.timeoutMs);
          });
    // The losers are told apart by their private markers (no wrapper promise per contender).
    let outcome: unknown;
    try {
      outcome = await Promise.race<unknown>(timeout ? [execution, aborted, timeout] : [execution, aborted]);
    } catch (error) {
      // A tool that rejects because its signal fired was stopped, not broken.
      if (timedOut) outcome = TIMED_OUT;
      else if (runSignal.aborted) outcome = ABORTED;
      else throw error;
    }
    // Interrupted after the call's effect was recorded (a plan saved): its own answer says what
    // happened, and it comes without a further wait (nothing is left to do but build it).
    if (outcome === ABORTED && core.recordedCalls?.has(call.toolUseId) === true) outcome = await execution;
    if (outcome === ABORTED || outcome === TIMED_OUT) {
      execution.catch(noop);
      const message = timedOut
        ? `Tool "${tool.name}" timed out after ${tool.timeoutMs} ms and was stopped. Try a smaller step or a different approach.`
        : INTERRUPTED;
      await failCall(core, call, input, message, new ToolExecutionError(tool.name, message, { timedOut }), abort);
      return;
    }
    const settling = settleCall(ending, outcome);
    if (settling) await settling;
  } catch (error) {
    await callFailed(ending, error);
  } finally {
    core.running.delete(call.toolUseId);
    core.recordedCalls?.delete(call.toolUseId);
    if (timer) clearTimeout(timer);
    stopListening();
  }
}

/**
 * Answers a call with what its tool returned (or suspends it): synchronously unless `PostToolUse`
 * hooks run. A failure on the way answers it as a failed call.
 */
function settleCall(ending: CallEnding, value: unknown): Promise<void> | undefined {
  const { core, call, input, abort } = ending;
  if (isToolSuspension(value)) {
    suspend(core, call, value);
    return undefined;
  }
  const returned = value as ToolReturn;
  if (hasHooks(core.options.hooks, 'PostToolUse')) {
    return afterPostToolUseHooks(core, call, input, returned, abort.signal)
      .then((content) => answer(ending, content, returned))
      .catch((error: unknown) => callFailed(ending, error));
  }
  answer(ending, toToolResultContent(returned, resultCharLimit(core)), returned);
  return undefined;
}

/** Records the call's result. */
function answer(ending: CallEnding, { content, isError }: ToolResultContent, output: ToolReturn): void {
  const { core, call, note } = ending;
  const noted = note ? (typeof content === 'string' ? `${note}\n\n${content}` : [{ type: 'text' as const, text: note }, ...content]) : content;
  const block: ToolResultBlock = { type: 'tool_result', tool_use_id: call.toolUseId, content: noted };
  // A string content is well-formed as made (ToolResultContent): the entry's check need not scan it again.
  if (noted === content && typeof content === 'string') rememberWellFormedText(block, content);
  if (isError) block.is_error = true;
  core.answerCall(call, core.spillResult(call.toolName, block), { output, durationMs: performance.now() - ending.started });
}

/** Answers a call whose tool threw (or whose result could not be recorded). */
function callFailed(ending: CallEnding, error: unknown): Promise<void> {
  const message = `Tool "${ending.tool.name}" failed: ${describeThrown(error)}`;
  return failCall(ending.core, ending.call, ending.input, message, new ToolExecutionError(ending.tool.name, message, { cause: error }), ending.abort);
}

function suspend(core: AgentCore, call: BatchCall, suspension: ToolSuspension): void {
  const nested = suspension.nested as Partial<NestedRun> | undefined;
  if (!nested || typeof nested.agentId !== 'string' || typeof nested.state !== 'object' || nested.state === null) {
    refuseCall(core, call, `Tool "${call.toolName}" suspended the call without a valid nested run ({ agentId, state }), so the call was stopped.`);
    return;
  }
  core.commit({ kind: 'call-suspended', toolUseId: call.toolUseId, nested: structuredClone(suspension.nested) });
}

/** The result content after `PostToolUse` hooks: a replaced output, then any added context. */
async function afterPostToolUseHooks(core: AgentCore, call: BatchCall, input: unknown, value: unknown, signal: AbortSignal): Promise<ToolResultContent> {
  const maxChars = resultCharLimit(core);
  let { content, isError } = toToolResultContent(value, maxChars);
  // The blocks are the tool's own, which the hooks get as toolResponse: a hook that changed one in
  // place (a text made blank) would change the result the API gets after it was checked.
  if (typeof content !== 'string') content = structuredClone(content);
  const post = await runHooksUnchecked({
    event: 'PostToolUse',
    hooks: core.options.hooks,
    signal,
    // Its own copy of the output too: the host gets `value` as the tool-result event's `output`.
    input: Object.assign(hookInputBase(core), { toolName: call.toolName, toolInput: input, toolUseId: call.toolUseId, toolResponse: copyToolInput(value) }),
  });
  reportHookErrors(core, post.errors);
  for (const output of post.outputs) {
    if (output?.updatedOutput !== undefined) ({ content, isError } = toToolResultContent(output.updatedOutput, maxChars));
  }
  const context = post.outputs.map((output) => output?.additionalContext).filter((text): text is string => typeof text === 'string' && text.trim() !== '');
  if (context.length) {
    const blocks = typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content;
    // The hooks' context counts against the same limit as the output: a hook cannot flood the context.
    const used = blocks.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : 0), 0);
    content = [...blocks, { type: 'text' as const, text: truncateText(context.join('\n\n'), Math.max(0, maxChars - used)) }];
  }
  return { content, isError };
}

async function failCall(core: AgentCore, call: BatchCall, input: unknown, message: string, error: ToolExecutionError, abort: RunAbort): Promise<void> {
  if (hasHooks(core.options.hooks, 'PostToolUseFailure')) {
    const failure = await runHooksUnchecked({
      event: 'PostToolUseFailure',
      hooks: core.options.hooks,
      signal: abort.signal,
      input: Object.assign(hookInputBase(core), { toolName: call.toolName, toolInput: input, toolUseId: call.toolUseId, error }),
    });
    reportHookErrors(core, failure.errors);
  }
  refuseCall(core, call, message);
}

/**
 * The fields every hook input of `core`'s events carries: its session, and — in a subagent, whose
 * parent's hooks run for it — its `agentId`, so a hook can tell whose event it is. A new object:
 * callers add their fields to it (`Object.assign`, not a spread followed by new keys: see
 * docs/architecture.md).
 */
export function hookInputBase(core: AgentCore): { sessionId: string; agentId?: string } {
  return core.agentId === undefined ? { sessionId: core.sessionId } : { sessionId: core.sessionId, agentId: core.agentId };
}

/** Reports errors thrown by non-blocking hooks as non-fatal error events. */
export function reportHookErrors(core: AgentCore, errors: readonly Error[]): void {
  for (const error of errors) core.emit({ type: 'error', error, fatal: false });
}
