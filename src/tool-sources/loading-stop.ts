/**
 * Stops an agent's tool sources while they load (`close()` while its MCP servers connect): a
 * flag and one listener. An `AbortController` did this before, and cost every agent with
 * asynchronous sources (skills given as a promise, MCP servers) about 5 µs on Node 20 (its
 * signal, made when read, and a listener added and removed) for a stop that rarely comes.
 */
export class LoadingStop {
  #stopped = false;
  #onStop: (() => void) | undefined;

  /** True once {@link LoadingStop.stop} was called. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Stops the loading: calls the listener, once. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    const onStop = this.#onStop;
    this.#onStop = undefined;
    onStop?.();
  }

  /** Calls `onStop` when the loading is stopped (at once when it already is); `undefined` forgets the listener. */
  listen(onStop: (() => void) | undefined): void {
    if (onStop !== undefined && this.#stopped) onStop();
    else this.#onStop = onStop;
  }
}
