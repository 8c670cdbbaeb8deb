import { countAsciiCharacters } from '../context/index.js';
import { usageProblem, type Usage } from '../model/usage.js';

/**
 * Counts one model call that did not complete.
 * @param usage - what it was billed for: its last reported usage, its `outputTokens` raised by
 *   `estimatedOutputTokens`.
 * @param estimatedOutputTokens - the part of `usage.outputTokens` estimated from what it streamed
 *   after its last report (0 when nothing was).
 */
export type CountPartialUsage = (usage: Usage, estimatedOutputTokens: number) => void;

/**
 * The usage a model call reported so far (its `usage` stream events, each replacing the last),
 * for a call that may not complete: interrupted, or failed midway, it was billed for it, and the
 * caller counts it once (see `ModelStreamEvent`). A call that completes counts its response's.
 *
 * The Anthropic API reports a call's output tokens only at its end, so a call given up midway
 * reported none of what it streamed. The text, thinking and tool input it streamed after its last
 * report are therefore estimated, as `estimateTextTokens` does (a quarter token per ASCII
 * character, one per other UTF-16 unit), and added to the reported output: a run's cost and
 * budget then include what an interrupted answer was billed for. When a report follows (the
 * API's own count, at `message_delta`), it replaces the estimate; nothing is counted twice. A
 * call that never reported a usage is not counted at all (its input is not known either).
 */
export class PartialUsage {
  #usage: Usage | undefined;
  /** ASCII characters streamed since the last report. */
  #ascii = 0;
  /** Other UTF-16 units streamed since the last report. */
  #other = 0;

  /**
   * Keeps the latest usage event's counts; what was streamed before it is covered by it.
   * @returns what is wrong with them (nothing kept), or undefined.
   */
  record(usage: unknown): string | undefined {
    const problem = usageProblem(usage);
    if (problem === undefined) {
      this.#usage = usage as Usage;
      this.#ascii = 0;
      this.#other = 0;
    }
    return problem;
  }

  /** Notes output the call streamed (a text, thinking or tool input delta), for the estimate. */
  streamed(text: string): void {
    if (typeof text !== 'string') return; // a custom model's malformed delta is not counted
    const ascii = countAsciiCharacters(text);
    this.#ascii += ascii;
    this.#other += text.length - ascii;
  }

  /** Forgets what was reported and streamed (a new attempt starts, or the call completed). */
  clear(): void {
    this.#usage = undefined;
    this.#ascii = 0;
    this.#other = 0;
  }

  /** Hands what was reported, with the estimate of what was streamed since, to `count`, once: it is forgotten here. */
  countInto(count: CountPartialUsage): void {
    const billed = this.#usage;
    const estimated = Math.ceil(this.#ascii / 4 + this.#other);
    this.clear();
    if (!billed) return;
    count(estimated === 0 ? billed : { ...billed, outputTokens: billed.outputTokens + estimated }, estimated);
  }
}
