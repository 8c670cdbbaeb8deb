import { allowAbortListeners } from './allow-abort-listeners.js';

/**
 * A run's interruption. The loop checks `aborted`, a plain flag, at every step; `signal`, the
 * `AbortSignal` the model, tools, hooks and the host's callbacks are handed, is made the first
 * time one of them needs it (at the latest for the run's first model call).
 *
 * Reading `aborted` on Node's own `AbortSignal` costs 20–30 ns (its getter checks its receiver)
 * against a few for a flag, and the loop reads it several times a turn; making one costs about
 * 2 µs (Node 20), which a run that ends before any model call (an approval answered with a stop,
 * a blocked prompt) need not pay. Made late, it is the same signal: aborted already
 * when the run was, and aborted with the run's reason when it is.
 */
export class RunAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  readonly #toolConcurrency: number;

  /** @param toolConcurrency - the run's `maxToolConcurrency`, for the signal's listener limit (see `allowAbortListeners`). */
  constructor(toolConcurrency: number) {
    this.#toolConcurrency = toolConcurrency;
  }

  /** True once the run is interrupted. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** Why it was interrupted (undefined until it is). */
  get reason(): unknown {
    return this.#reason;
  }

  /** The signal, or undefined while nothing has asked for it. */
  get signalIfMade(): AbortSignal | undefined {
    return this.#controller?.signal;
  }

  /** The run's `AbortSignal` (made now if nothing asked for it before). */
  get signal(): AbortSignal {
    let controller = this.#controller;
    if (controller === undefined) {
      controller = this.#controller = new AbortController();
      allowAbortListeners(controller.signal, this.#toolConcurrency);
      if (this.#aborted) controller.abort(this.#reason);
    }
    return controller.signal;
  }

  /** Interrupts the run (a second call does nothing): the signal, if made, aborts with `reason`. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
