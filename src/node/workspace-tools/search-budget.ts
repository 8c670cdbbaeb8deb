/** Options of {@link SearchBudget}. */
export interface SearchBudgetOptions {
  /** Directory entries (files, directories, links) the walk may visit. */
  maxEntries: number;
  /** Milliseconds the whole search (walking, reading, matching) may take, on `now`. */
  timeBudgetMs: number;
  /** The clock, in milliseconds. */
  now: () => number;
}

/**
 * What one Glob or Grep call may spend walking: a count of directory entries and a time budget
 * on an injectable clock. Once either runs out the walk stops and the tool returns what it found,
 * marked partial ({@link SearchBudget.note}), instead of walking a huge tree (a home directory, a
 * mounted network drive) until the run is interrupted.
 */
export class SearchBudget {
  private entries = 0;
  private readonly startedAt: number;
  /** Why the walk stopped early, once it has. */
  exhausted: 'entries' | 'time' | undefined;

  constructor(private readonly options: SearchBudgetOptions) {
    this.startedAt = options.now();
  }

  /** Counts one directory entry; `false` when the budget is spent and the walk must stop. */
  visit(): boolean {
    if (this.exhausted) return false;
    if (this.entries >= this.options.maxEntries) this.exhausted = 'entries';
    else if (this.options.now() - this.startedAt >= this.options.timeBudgetMs) this.exhausted = 'time';
    else this.entries++;
    return this.exhausted === undefined;
  }

  /**
   * The note a partial result ends with: why the search stopped, and how to narrow it.
   * @param where - the searched directory, as the model named it.
   * @param narrow - how to narrow this tool's search.
   */
  note(where: string, narrow: string): string {
    const why =
      this.exhausted === 'time'
        ? `stopped after ${this.options.timeBudgetMs} ms (searchTimeBudgetMs)`
        : `stopped after visiting ${this.options.maxEntries} entries (maxSearchEntries)`;
    return `[The search ${why} before it had walked all of ${where}: the results are partial. ${narrow}]`;
  }
}
