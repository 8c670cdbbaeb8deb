/** The part of `node:events` used here. */
interface NodeEvents {
  setMaxListeners(count: number, ...targets: EventTarget[]): void;
}

/**
 * Node's `events` module where the runtime has one (Node ≥ 20.16 lends it synchronously through
 * `process.getBuiltinModule`); undefined in browsers and older runtimes, where nothing counts
 * listeners.
 */
const events = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:events') as NodeEvents | undefined;

/** Abort listeners a run's signal takes before Node warns, beyond two per parallel tool call. */
const BASE_LISTENERS = 10;

/**
 * Lets a run's signal take the abort listeners its parallel tool calls legitimately add (a
 * `fetch`, a child process, a hook's timer: one or two each) without Node printing
 * "MaxListenersExceededWarning: Possible EventTarget memory leak detected": 10 plus two per call
 * of `maxToolConcurrency`. Listeners beyond it still warn.
 */
export function allowAbortListeners(signal: AbortSignal, toolConcurrency: number): void {
  events?.setMaxListeners(BASE_LISTENERS + 2 * toolConcurrency, signal);
}
