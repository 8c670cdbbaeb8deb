import { allowAbortListeners } from './allow-abort-listeners.js';

/** Where a lent getter finds its run (a symbol: no string key of the target changes). */
const RUN_ABORT = Symbol('agent-harness.runAbort');

/** Lazy getters {@link RunAbort.lendSignal} defines in one run before it makes the signal (rent ≤ the signal's price). */
const MAX_LAZY_LENDS = 8;

/** One descriptor, one getter for every target: V8 then gives the targets one shape. */
const LAZY_SIGNAL: PropertyDescriptor = {
  get(this: { [RUN_ABORT]: RunAbort }): AbortSignal {
    return this[RUN_ABORT].signal;
  },
  // Assigning replaces it with a plain field, as on the plain object it stands in for.
  set(this: object, value: unknown): void {
    Object.defineProperty(this, 'signal', { value, writable: true, enumerable: true, configurable: true });
  },
  enumerable: true,
  configurable: true,
};

/**
 * A run's interruption. The loop checks `aborted`, a plain flag, at every step; `signal`, the
 * `AbortSignal` the model, tools, hooks and the host's callbacks are handed, is made the first
 * time one of them reads it (see {@link RunAbort.lendSignal}).
 *
 * Reading `aborted` on Node's own `AbortSignal` costs 20–30 ns (its getter checks its receiver)
 * against a few for a flag, and the loop reads it several times a turn; making one costs about
 * 4 µs (Node 20), which a run that ends before any model call (an approval answered with a stop,
 * a blocked prompt), or whose model and tools never read it, need not pay. Made late, it is the
 * same signal: aborted already when the run was, and aborted with the run's reason when it is.
 */
export class RunAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  readonly #toolConcurrency: number;
  /** Rejects the promise {@link RunAbort.race} is waiting on, if any. */
  #wake: ((reason: unknown) => void) | undefined;
  /** Getters {@link RunAbort.lendSignal} defined so far in this run. */
  #lazyLends = 0;
  /** Called once when the run is interrupted (see {@link RunAbort.whenAborted}). */
  #listeners: Array<() => void> | undefined;

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

  /**
   * Gives `target` a `signal` property that is the run's signal. While the signal is not made,
   * the property is a getter that makes it when read: a model or tool that never looks at it (an
   * in-memory model, a synchronous tool) does not cost the run one, about 4 µs on Node 20 (its
   * `AbortSignal` constructor is slow), a fifth of a short run. Such a property costs about 0.2 µs
   * to define, so after {@link MAX_LAZY_LENDS} of them in a run the signal is made and lent as a
   * plain field (a long run pays at most that rent, then nothing). Enumerable and writable either
   * way: a spread or `Object.keys` of `target` sees `signal`, and assigning it replaces it.
   */
  lendSignal<T extends object>(target: T): T & { signal: AbortSignal } {
    const lent = target as T & { signal: AbortSignal; [RUN_ABORT]?: RunAbort };
    if (this.#controller !== undefined || ++this.#lazyLends > MAX_LAZY_LENDS) {
      lent.signal = this.signal;
      return lent;
    }
    lent[RUN_ABORT] = this;
    Object.defineProperty(lent, 'signal', LAZY_SIGNAL);
    return lent;
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

  /**
   * Settles like `work`, or rejects with the run's reason as soon as the run is interrupted,
   * whichever comes first: for awaiting host code that may not honour the signal (a custom
   * Model's stream), so that `interrupt()` and `close()` never wait on it. A late settlement of
   * `work` is absorbed. One race at a time (the run's model call); a race started while another
   * waits replaces its wake-up, so the earlier one then waits for its `work` alone.
   *
   * One promise per call and no listener on the signal: a plain field the abort reads, so the
   * race costs a turn next to nothing.
   */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.#aborted) {
      work.then(undefined, ignore);
      return Promise.reject(this.#reason);
    }
    return new Promise<T>((resolve, reject) => {
      this.#wake = reject;
      work.then(
        (value) => {
          if (this.#wake === reject) this.#wake = undefined;
          resolve(value);
        },
        (error: unknown) => {
          if (this.#wake === reject) this.#wake = undefined;
          reject(error);
        },
      );
    });
  }

  /**
   * Calls `listener` once when the run is interrupted (at once when it is already), without
   * making the signal: what only the library waits on (the bound on a store's writes) does not
   * cost the run an `AbortSignal`. Returns a function that takes the listener off.
   */
  whenAborted(listener: () => void): () => void {
    if (this.#aborted) {
      listener();
      return ignore;
    }
    const listeners = (this.#listeners ??= []);
    listeners.push(listener);
    return () => {
      const index = listeners.indexOf(listener);
      if (index >= 0) listeners.splice(index, 1);
    };
  }

  /** Interrupts the run (a second call does nothing): the signal, if made, aborts with `reason`, a {@link RunAbort.race} waiting rejects with it, and the {@link RunAbort.whenAborted} listeners are called. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.(reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }
}

function ignore(): void {}
