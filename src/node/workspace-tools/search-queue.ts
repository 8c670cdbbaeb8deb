/**
 * The searches a walk has under way, taken in the order they were started. Each may go on at
 * once, or hold back until it is the oldest one under way (`waitForTurn`): Grep reads small files
 * ahead while an earlier one is matched, but a large one only in its turn, so at most one large
 * file is held at a time.
 */
export class SearchQueue<T> {
  readonly #entries: Array<{ index: number; result: Promise<T> }> = [];
  /** Searches waiting for their turn, by index. */
  readonly #waiting = new Map<number, (go: boolean) => void>();
  #started = 0;
  /** The index of the oldest search taken: it and every earlier one may go on. */
  #turn = 0;
  #closed = false;

  /** How many searches are under way (started, not taken yet). */
  get size(): number {
    return this.#entries.length;
  }

  /**
   * Starts a search. `start` is given `waitForTurn`, which resolves `true` once the search is the
   * oldest under way (at once when it is already), or `false` when the queue was closed first: the
   * search is not wanted then, and should end without its work.
   */
  add(start: (waitForTurn: () => Promise<boolean>) => Promise<T>): void {
    const index = this.#started++;
    const waitForTurn = (): Promise<boolean> => {
      if (this.#closed) return Promise.resolve(false);
      if (index <= this.#turn) return Promise.resolve(true);
      return new Promise((resolve) => this.#waiting.set(index, resolve));
    };
    const result = start(waitForTurn);
    // Handled here too: a search that fails while an earlier one is awaited is not an unhandled
    // rejection (it is thrown by `next()` in its turn).
    result.catch(() => undefined);
    this.#entries.push({ index, result });
  }

  /** The oldest search under way, which may go on now; its result. */
  next(): Promise<T> {
    const entry = this.#entries.shift();
    if (entry === undefined) throw new Error('SearchQueue.next: no search is under way');
    this.#turn = entry.index;
    const go = this.#waiting.get(entry.index);
    if (go !== undefined) {
      this.#waiting.delete(entry.index);
      go(true);
    }
    return entry.result;
  }

  /** Ends the queue: searches waiting for their turn are told not to go on; resolves once every search has settled. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const go of this.#waiting.values()) go(false);
    this.#waiting.clear();
    await Promise.allSettled(this.#entries.map((entry) => entry.result));
  }
}
