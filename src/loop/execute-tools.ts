import PQueue from 'p-queue';
import type { AgentCore } from '../agent/agent-core.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import { runHooks } from '../hooks/run-hooks.js';
import type { BatchCall, OpenBatch } from './open-batch.js';
import { answerWithError } from './open-batch.js';
import { refuseCall } from './refuse-call.js';
import { toToolResultContent, type ToolResultContent } from './tool-result-content.js';

const INTERRUPTED = 'The user interrupted this tool call before it finished; it may have had partial effects. Do not assume it completed.';

/**
 * Executes the allowed calls of a batch that come before any call still waiting for the host:
 * consecutive concurrency-safe calls run in parallel
 * (through a p-queue bounded by `maxToolConcurrency`), every other call alone, in order. Results
 * are stored on each call, so their order is the `tool_use` order whatever order they finish in.
 */
export async function executeTools(core: AgentCore, batch: OpenBatch, signal: AbortSignal, queue: PQueue): Promise<void> {
  const allowed = runnableCalls(batch);
  let index = 0;
  while (index < allowed.length && !signal.aborted) {
    const first = allowed[index]!;
    const group: BatchCall[] = [first];
    index++;
    if (isConcurrencySafe(core, first)) {
      while (index < allowed.length && isConcurrencySafe(core, allowed[index]!)) group.push(allowed[index++]!);
    }
    await Promise.all(group.map((call) => queue.add(() => executeCall(core, call, signal))));
  }
  for (const call of allowed) {
    if (call.state === 'done') continue;
    refuseCall(core, call, INTERRUPTED);
  }
}

/**
 * The allowed calls that may run now: those before the first call still waiting for a decision,
 * so calls never run out of `tool_use` order (a write after a pending mkdir waits for it).
 */
function runnableCalls(batch: OpenBatch): BatchCall[] {
  const runnable: BatchCall[] = [];
  for (const call of batch.calls) {
    if (call.state === 'deferred' || call.state === 'undecided') break;
    if (call.state === 'allowed') runnable.push(call);
  }
  return runnable;
}

function isConcurrencySafe(core: AgentCore, call: BatchCall): boolean {
  return core.tools.get(call.toolName)?.concurrencySafe ?? false;
}


const PLAN_MODE_GUARD =
  'This call was not run: plan mode is active, and only read-only tools run while planning. Present your plan with ExitPlanMode first.';

async function executeCall(core: AgentCore, call: BatchCall, runSignal: AbortSignal): Promise<void> {
  const tool = core.tools.get(call.toolName)!;
  // The last line of defence for "plan mode never writes": whatever was decided earlier (an
  // approval given before the host switched to plan mode, say), nothing that writes runs now.
  if (core.mode === 'plan' && !(tool.isReadOnlyCall?.(call.input) ?? tool.readOnly)) {
    refuseCall(core, call, PLAN_MODE_GUARD);
    return;
  }
  // A signal of its own only when the call can time out; otherwise the run's signal serves (and
  // saves creating one per call, a measurable share of a turn).
  const controller = tool.timeoutMs === undefined ? undefined : new AbortController();
  const signal = controller?.signal ?? runSignal;
  let releaseOnAbort: (value: 'aborted') => void = () => undefined;
  const aborted = new Promise<'aborted'>((resolve) => (releaseOnAbort = resolve));
  const onAbort = () => {
    controller?.abort(runSignal.reason);
    releaseOnAbort('aborted');
  };
  if (runSignal.aborted) onAbort();
  else runSignal.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const started = performance.now();
  // Seen as running by a snapshot taken meanwhile: a resume answers it, never runs it again.
  call.state = 'running';
  try {
    const timeout = tool.timeoutMs === undefined ? undefined : new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        timedOut = true;
        controller?.abort(new ToolExecutionError(tool.name, `timed out after ${tool.timeoutMs} ms`, { timedOut: true }));
        resolve('timeout');
      }, tool.timeoutMs);
    });
    const execution = Promise.resolve().then(() =>
      tool.execute({ input: call.input, signal, toolUseId: call.toolUseId, agent: core.toolContext }),
    );
    const contenders: Array<Promise<unknown>> = [execution, aborted];
    if (timeout) contenders.push(timeout);
    const outcome = await Promise.race(contenders.map((promise, position) => promise.then((value) => ({ position, value }))));
    if (outcome.position !== 0) {
      execution.catch(() => undefined);
      const message = timedOut
        ? `Tool "${tool.name}" timed out after ${tool.timeoutMs} ms and was stopped. Try a smaller step or a different approach.`
        : INTERRUPTED;
      await failCall(core, call, message, new ToolExecutionError(tool.name, message, { timedOut }), runSignal);
      return;
    }
    const { content, isError } = core.options.hooks?.PostToolUse?.length
      ? await afterPostToolUseHooks(core, call, outcome.value, runSignal)
      : toToolResultContent(outcome.value, core.options.maxToolResultChars ?? 100_000);
    call.state = 'done';
    call.result = { type: 'tool_result', tool_use_id: call.toolUseId, content, ...(isError ? { is_error: true } : {}) };
    core.emit({ type: 'tool-result', toolUseId: call.toolUseId, toolName: tool.name, content, isError, output: outcome.value, durationMs: performance.now() - started });
  } catch (error) {
    const message = `Tool "${tool.name}" failed: ${error instanceof Error ? error.message : String(error)}`;
    await failCall(core, call, message, new ToolExecutionError(tool.name, message, { cause: error }), runSignal);
  } finally {
    if (timer) clearTimeout(timer);
    runSignal.removeEventListener('abort', onAbort);
  }
}

/** The result content after `PostToolUse` hooks: a replaced output, then any added context. */
async function afterPostToolUseHooks(core: AgentCore, call: BatchCall, value: unknown, signal: AbortSignal): Promise<ToolResultContent> {
  const maxChars = core.options.maxToolResultChars ?? 100_000;
  let { content, isError } = toToolResultContent(value, maxChars);
  const post = await runHooks({
    event: 'PostToolUse',
    hooks: core.options.hooks,
    signal,
    input: { sessionId: core.sessionId, toolName: call.toolName, toolInput: call.input, toolUseId: call.toolUseId, toolResponse: value },
  });
  reportHookErrors(core, post.errors);
  for (const output of post.outputs) {
    if (output?.updatedOutput !== undefined) ({ content, isError } = toToolResultContent(output.updatedOutput, maxChars));
  }
  const context = post.outputs.map((output) => output?.additionalContext).filter((text): text is string => Boolean(text));
  if (context.length) {
    const blocks = typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content;
    content = [...blocks, ...context.map((text) => ({ type: 'text' as const, text }))];
  }
  return { content, isError };
}

async function failCall(core: AgentCore, call: BatchCall, message: string, error: ToolExecutionError, signal: AbortSignal): Promise<void> {
  answerWithError(call, message);
  const failure = await runHooks({
    event: 'PostToolUseFailure',
    hooks: core.options.hooks,
    signal,
    input: { sessionId: core.sessionId, toolName: call.toolName, toolInput: call.input, toolUseId: call.toolUseId, error },
  });
  reportHookErrors(core, failure.errors);
  core.emit({ type: 'tool-result', toolUseId: call.toolUseId, toolName: call.toolName, content: message, isError: true });
}

/** Reports errors thrown by non-blocking hooks as non-fatal error events. */
export function reportHookErrors(core: AgentCore, errors: readonly Error[]): void {
  for (const error of errors) core.emit({ type: 'error', error, fatal: false });
}
