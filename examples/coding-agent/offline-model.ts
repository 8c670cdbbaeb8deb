/**
 * The offline model: a `scriptedModel` whose every turn is computed from the request's history,
 * so it picks up where the session left off after Ctrl-C and a resume, like a real model would.
 */
import type { Message, ModelRequest, ToolResultBlock, ToolUseBlock } from 'agent-harness';
import { scriptedModel, turn, type ScriptedModel, type ScriptedTurn } from 'agent-harness/testing';
import { OFFLINE_STEPS, type OfflineStep, type OfflineStepName, type ScriptedCall, type StepContext } from './offline-script.js';

/** Options of {@link offlineModel}. */
export interface OfflineModelOptions {
  /** Stop at this step (mid-stream, as if thinking) until the run is interrupted. */
  pauseAt?: OfflineStepName;
}

/** The tool calls of a history and their results, by `tool_use` id. */
interface History {
  calls: Map<string, { name: string; input: unknown }>;
  results: Map<string, { isError: boolean; text: string }>;
}

// A call answered with one of these never ran (or was cut short): the model makes it again.
const NOT_RUN = /interrupted|instead of answering/i;
// The model turns one process may ask for; each runs the same history-driven factory.
const MAX_TURNS_PER_PROCESS = 200;

function readHistory(messages: readonly Message[]): History {
  const history: History = { calls: new Map(), results: new Map() };
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      // Narrowed by hand: the block union also has an open-ended unknown block type.
      if (block.type === 'tool_use') {
        const use = block as ToolUseBlock;
        history.calls.set(use.id, { name: use.name, input: use.input });
      } else if (block.type === 'tool_result') {
        const result = block as ToolResultBlock;
        const text = typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
        history.results.set(result.tool_use_id, { isError: result.is_error === true, text });
      }
    }
  }
  return history;
}

/** Every attempt at a scripted call, oldest first: `id`, `id_2`, `id_3`, ... */
function attemptsOf(history: History, call: ScriptedCall): string[] {
  const retry = new RegExp(`^${call.id}_(\\d+)$`);
  const ids = [...history.calls.keys()].filter((id) => id === call.id || retry.test(id));
  const number = (id: string) => (id === call.id ? 1 : Number(id.slice(call.id.length + 1)));
  return ids.sort((a, b) => number(a) - number(b));
}

function settled(history: History, call: ScriptedCall): boolean {
  const last = attemptsOf(history, call).at(-1);
  const result = last === undefined ? undefined : history.results.get(last);
  if (!result || NOT_RUN.test(result.text)) return false;
  return !(call.mustSucceed && result.isError);
}

function contextOf(history: History): StepContext {
  const planFeedback: string[] = [];
  let testsFailed = false;
  for (const [id, call] of history.calls) {
    const result = history.results.get(id);
    if (!result) continue;
    const feedback = /with this feedback: "([\s\S]*)"/.exec(result.text)?.[1];
    if (call.name === 'ExitPlanMode' && result.isError && feedback) planFeedback.push(feedback);
    if (id.startsWith('toolu_run_tests')) testsFailed = result.isError;
  }
  return { planFeedback, testsFailed };
}

/** Holds the turn until the run is interrupted, keeping the process alive meanwhile (as a real model's open connection would). */
function waitForAbort(signal: AbortSignal | undefined): Promise<void> {
  if (!signal || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const keepAlive = setInterval(() => undefined, 60_000);
    signal.addEventListener('abort', () => (clearInterval(keepAlive), resolve()), { once: true });
  });
}

function nextTurn(request: ModelRequest, options: OfflineModelOptions): ScriptedTurn {
  const history = readHistory(request.messages);
  const context = contextOf(history);
  const step: OfflineStep = OFFLINE_STEPS.find((candidate) => candidate.calls(context).some((call) => !settled(history, call))) ?? OFFLINE_STEPS.at(-1)!;
  const open = step.calls(context).filter((call) => !settled(history, call));
  const started = open.some((call) => attemptsOf(history, call).length > 0);
  const calls = open.map((call) => {
    const attempt = attemptsOf(history, call).length + 1;
    return { type: 'tool_use' as const, id: attempt === 1 ? call.id : `${call.id}_${attempt}`, name: call.name, input: call.input };
  });
  const rejectedPlan = step.name === 'plan' && context.planFeedback.length > 0;
  const text = started && !rejectedPlan ? 'Picking up where I left off.' : step.text(context);
  const pause = options.pauseAt === step.name ? { hold: waitForAbort } : {};
  return turn(text, ...calls, pause);
}

/**
 * A scripted model that plays the sample-project flow. Each turn looks at the history and plays
 * the first step whose tool calls have not all been answered, so a resumed session goes on from
 * where it stopped and nothing that already ran is asked for again.
 */
export function offlineModel(options: OfflineModelOptions = {}): ScriptedModel {
  const factory = (request: ModelRequest) => nextTurn(request, options);
  return scriptedModel(Array.from({ length: MAX_TURNS_PER_PROCESS }, () => factory), { chunkSize: 24 });
}
