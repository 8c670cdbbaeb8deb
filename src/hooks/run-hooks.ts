import { HookError } from '../errors/hook-error.js';
import { checkHookOutput } from './check-hook-output.js';
import { hookMatches } from './hook-matcher.js';
import type { HookCallInput, HookEntry, HookEventName, HookInput, HookOutput, HooksConfig } from './types.js';
import { describeThrown } from '../errors/describe-thrown.js';
import { readAnswer } from '../options/read-answer.js';
import { isAbortSignal } from '../options/option-checks.js';
import { HOOK_OUTPUT_FIELDS } from './hook-output-fields.js';
import { copyToolInput } from './copy-tool-input.js';
import { MAX_TIMER_MS } from '../types/max-timer-ms.js';
import { argumentError, isObjectValue } from '../errors/argument-error.js';

/** The timeout of a hook without its own `timeoutMs`. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/** Options of {@link runHooks}. */
export interface RunHooksOptions<E extends HookEventName> {
  /** The event whose hooks run. */
  event: E;
  /** The event input without `hookEventName` and `signal`, which the runner sets. */
  input: HookCallInput<E>;
  /** The agent's `hooks` option (checked with `validateHooksConfig`); `undefined` runs nothing. */
  hooks: HooksConfig | undefined;
  /** Aborted on interrupt: the running hook's signal aborts and the runner stops waiting for it. */
  signal: AbortSignal;
  /**
   * What aborting `signal` means, for the error of a hook it stopped ("was aborted because …").
   * @default 'the run was interrupted'
   */
  abortedBecause?: string;
  /**
   * Timeout of hooks that set no `timeoutMs`.
   * @default 60000
   */
  defaultTimeoutMs?: number;
}

/** What {@link runHooks} collected. */
export interface RunHooksResult<E extends HookEventName> {
  /** The outputs of the hooks that succeeded, in run order (`{}` for a hook that returned nothing). */
  outputs: Array<HookOutput<E>>;
  /** One error per hook that threw, timed out, was aborted or returned an invalid output. */
  errors: HookError[];
  /** How many hooks matched and ran. */
  ran: number;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: HookError };

function hookFailure(event: string, index: number, what: string, cause?: unknown, timedOut = false): HookError {
  return new HookError(`${event} hook #${index} ${what}.`, { hookEventName: event, hookIndex: index, cause, timedOut });
}

/** Runs one hook against its timeout and the run's signal; the timer and listener are always cleared. */
async function runOne<E extends HookEventName>(
  event: E,
  index: number,
  entry: HookEntry<E>,
  input: HookCallInput<E>,
  signal: AbortSignal,
  timeoutMs: number,
  abortedBecause: string,
): Promise<Settled<unknown>> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<Settled<unknown>>((resolve) => {
    // A delay past what a timer holds (about 24.8 days) would fire at once: no timer, no limit.
    if (timeoutMs <= MAX_TIMER_MS) {
      timer = setTimeout(() => {
        const error = hookFailure(event, index, `timed out after ${timeoutMs} ms`, undefined, true);
        controller.abort(error);
        resolve({ ok: false, error });
      }, timeoutMs);
    }
    onAbort = () => {
      controller.abort(signal.reason);
      resolve({ ok: false, error: hookFailure(event, index, `was aborted because ${abortedBecause}`, signal.reason) });
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // Each hook gets its own copy of a tool input: a change in place is not a rewrite (see copyToolInput).
  const fields = 'toolInput' in input ? { hookEventName: event, signal: controller.signal, toolInput: copyToolInput(input.toolInput) } : { hookEventName: event, signal: controller.signal };
  const fullInput = Object.assign({}, input, fields) as unknown as HookInput<E>;
  const called = (async (): Promise<Settled<unknown>> => {
    try {
      // Read once, inside the try: an output whose fields throw when read is a hook that failed.
      return { ok: true, value: readAnswer(await entry.hook(fullInput), HOOK_OUTPUT_FIELDS[event]) };
    } catch (cause) {
      return { ok: false, error: hookFailure(event, index, `threw: ${describeThrown(cause)}`, cause) };
    }
  })();
  try {
    return await Promise.race([called, stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Runs the hooks of one event, in order, each with its own timeout. A hook whose `matcher` does
 * not match `input.toolName` is skipped. For tool events, a hook's `updatedInput` becomes the
 * next hook's `toolInput`. Never throws: failures are collected in `errors`, and the caller
 * decides what they mean (a failing `PreToolUse` hook denies its call).
 * @example
 * const { outputs, errors } = await runHooks({ event: 'Stop', input: { sessionId, stopHookActive: false, stopReason: 'end_turn' }, hooks, signal });
 */
export async function runHooks<E extends HookEventName>(options: RunHooksOptions<E>): Promise<RunHooksResult<E>> {
  if (!isObjectValue(options) || typeof options.event !== 'string') throw argumentError('runHooks', 'options', "an options object ({ event: 'PreToolUse', input, hooks, signal })", options);
  if (options.hooks !== undefined && !isObjectValue(options.hooks)) throw argumentError('runHooks', 'options.hooks', 'a hooks configuration ({ PreToolUse: [...] }) or undefined', options.hooks);
  isAbortSignal(options.signal, { owner: 'runHooks', path: 'options.signal' });
  return runHooksUnchecked<E>(options);
}

/** {@link runHooks} without its argument checks, for the library's own calls (their arguments are known good). @internal */
export async function runHooksUnchecked<E extends HookEventName>(options: RunHooksOptions<E>): Promise<RunHooksResult<E>> {
  const { event, hooks, signal } = options;
  const entries = (hooks?.[event] ?? []) as Array<HookEntry<E>>;
  const result: RunHooksResult<E> = { outputs: [], errors: [], ran: 0 };
  if (entries.length === 0) return result; // the common case: several calls per turn with nothing to run
  let input = options.input;
  const toolName = (input as { toolName?: unknown }).toolName;
  for (const [index, entry] of entries.entries()) {
    if (!hookMatches(entry.matcher, typeof toolName === 'string' ? toolName : undefined)) continue;
    result.ran += 1;
    const timeoutMs = entry.timeoutMs ?? options.defaultTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
    const settled = await runOne(event, index, entry, input, signal, timeoutMs, options.abortedBecause ?? 'the run was interrupted');
    if (!settled.ok) {
      result.errors.push(settled.error);
      continue;
    }
    const problem = checkHookOutput(event, settled.value);
    if (problem !== undefined) {
      result.errors.push(hookFailure(event, index, problem));
      continue;
    }
    const output = (settled.value ?? {}) as HookOutput<E>;
    result.outputs.push(output);
    const updatedInput = (output as { updatedInput?: unknown }).updatedInput;
    if (updatedInput !== undefined && 'toolInput' in input) {
      input = { ...input, toolInput: updatedInput };
    }
  }
  return result;
}
