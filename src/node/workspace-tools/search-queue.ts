/** Whether (or when) a search under way may go on. */
interface Turn {
  /** Its turn has come (taken by `next()`, or the first search of the queue). */
  mayGoOn: boolean;
  /** Set while it waits for its turn: called with whether to go on. */
  go?: ((go: boolean) => void) | undefined;
}

/**
 * The searches a walk has under way, taken in the order they were started. Each may go on at
 * once, or hold back until it is the oldest one under way (`waitForTurn`): Grep reads small files
 * ahead while an earlier one is matched, but a large one only in its turn, so at most one large
 * file is held at a time.
 */
export class SearchQueue<T> {
  /** The searches under way, oldest first. */
  readonly #searches: Array<{ turn: Turn; result: Promise<T> }> = [];
  #started = false;
  #closed = false;

  /** How many searches are under way (started, not taken yet). */
  get size(): number {
    return this.#searches.length;
  }

  /**
   * Starts a search. `start` is given `waitForTurn`, which resolves `true` once the search is the
   * oldest under way (at once when it is already), or `false` when the queue was closed first: the
   * search is not wanted then, and should end without its work.
   */
  add(start: (waitForTurn: () => Promise<boolean>) => Promise<T>): void {
    const turn: Turn = { mayGoOn: !this.#started };
    this.#started = true;
    const waitForTurn = (): Promise<boolean> => {
      if (this.#closed) return Promise.resolve(false);
      if (turn.mayGoOn) return Promise.resolve(true);
      return new Promise((resolve) => (turn.go = resolve));
    };
    const result = start(waitForTurn);
    // Handled here too: a search that fails while an earlier one is awaited is not an unhandled
    // rejection (it is thrown by `next()` in its turn).
    result.catch(() => undefined);
    this.#searches.push({ turn, result });
  }

  /** The oldest search under way, which may go on now; its result. */
  next(): Promise<T> {
    const search = this.#searches.shift();
    if (search === undefined) throw new Error('SearchQueue.next: no search is under way');
    search.turn.mayGoOn = true;
    release(search.turn, true);
    return search.result;
  }

  /** Ends the queue: searches waiting for their turn are told not to go on; resolves once every search has settled. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const search of this.#searches) release(search.turn, false);
    await Promise.allSettled(this.#searches.map((search) => search.result));
  }
}

/** Tells a search waiting for its turn whether to go on. */
function release(turn: Turn, go: boolean): void {
  const waiting = turn.go;
  turn.go = undefined;
  waiting?.(go);
}
