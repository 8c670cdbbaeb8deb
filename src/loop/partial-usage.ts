import { usageProblem, type Usage } from '../model/usage.js';

/**
 * The usage a model call reported so far (its `usage` stream events, each replacing the last),
 * for a call that may not complete: interrupted, or failed midway, it was billed for it, and the
 * caller counts it once (see `ModelStreamEvent`). A call that completes counts its response's.
 */
export class PartialUsage {
  #usage: Usage | undefined;

  /**
   * Keeps the latest usage event's counts.
   * @returns what is wrong with them (nothing kept), or undefined.
   */
  record(usage: unknown): string | undefined {
    const problem = usageProblem(usage);
    if (problem === undefined) this.#usage = usage as Usage;
    return problem;
  }

  /** Forgets what was reported (a new attempt starts, or the call completed). */
  clear(): void {
    this.#usage = undefined;
  }

  /** Hands what was reported, if anything, to `count`, once: it is forgotten here. */
  countInto(count: (usage: Usage) => void): void {
    const billed = this.#usage;
    this.#usage = undefined;
    if (billed) count(billed);
  }
}
