import { ConfigurationError } from '../errors/configuration-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { RunResult } from '../events/run-result.js';

/** Consumed slots an iterated run's buffer keeps before it drops them (see `settle`). */
const COMPACT_AFTER = 1024;

/**
 * One run of an agent: iterate it for events (`for await (const event of run)`), or await
 * `run.result`. The run starts at once whether or not anyone iterates; events are buffered for
 * a late iterator (unless the run was started with `bufferEvents: false`). Each run can be
 * iterated once; once that iteration ends (a `break` included), nothing more is kept for it.
 */
export class AgentRun<Output = unknown> implements AsyncIterable<AgentEvent> {
  /** The run's id, also on `run-start` and in the result. */
  readonly runId: string;
  /** Resolves when the run ends; never rejects (failures end with status `error`). */
  readonly result: Promise<RunResult<Output>>;
  private readonly buffer: AgentEvent[] = [];
  private done = false;
  /** The reading iterator's hand-off: called when an event arrives or the run ends. */
  private reader: (() => void) | undefined;
  /** 0: nobody has iterated yet; 1: being iterated; 2: the iteration ended, nobody can read more. */
  private iteration: 0 | 1 | 2 = 0;
  /** Events are kept for an iterator that has not started yet. */
  private readonly keepForLate: boolean;

  /**
   * @internal
   * @param fail - The result of a run whose `start` rejected after all (a bug, not a failure the
   * run reports itself): `result` resolves with it instead of rejecting.
   */
  constructor(runId: string, start: (push: (event: AgentEvent) => void) => Promise<RunResult>, fail: (error: unknown) => RunResult, keepForLate = true) {
    this.runId = runId;
    this.keepForLate = keepForLate;
    // The last line of defence of "never rejects": the run's own failures already end as `error`.
    this.result = (start((event) => this.push(event)).catch(fail) as Promise<RunResult<Output>>).finally(() => {
      this.done = true;
      this.reader?.();
    });
  }

  private push(event: AgentEvent): void {
    if (this.iteration === 2 || (this.iteration === 0 && !this.keepForLate)) return;
    this.buffer.push(event);
    this.reader?.();
  }

  /**
   * Reads the run's events. The iteration may be ended at any time: `return()` (what `break`
   * calls) resolves at once, also while a `next()` is waiting for an event, and that `next()` then
   * resolves `{ done: true }`. A `return()` before the first `next()` leaves the run to another
   * iterator.
   *
   * @throws {@link ConfigurationError} (from the first `next()`) when the run is already being
   * iterated, or was.
   */
  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    // Hand-written rather than an async generator: a generator queues `return()` behind a pending
    // `next()`, so a host stopping the iteration from another task would wait for the next event,
    // which may be minutes (or an approval) away.
    let state: 'unstarted' | 'reading' | 'ended' = 'unstarted';
    let index = 0;
    const waiting: Array<(result: IteratorResult<AgentEvent>) => void> = [];
    const finished = (): IteratorResult<AgentEvent> => ({ done: true, value: undefined });
    const end = () => {
      if (state === 'reading') {
        // A run is iterated once: what comes after the iteration ends has no reader.
        this.iteration = 2;
        this.reader = undefined;
        this.buffer.length = 0;
      }
      state = 'ended';
      for (const resolve of waiting.splice(0)) resolve(finished());
    };
    const settle = () => {
      while (waiting.length > 0) {
        if (index < this.buffer.length) {
          const event = this.buffer[index]!;
          // Drop consumed events so a long run does not hold them all, and the slots they leave
          // once they outnumber the rest (8 bytes each: 4 MB over a run of 500,000 deltas).
          this.buffer[index++] = undefined as never;
          if (index >= COMPACT_AFTER && index * 2 >= this.buffer.length) {
            this.buffer.splice(0, index);
            index = 0;
          }
          waiting.shift()!({ done: false, value: event });
        } else if (this.done) {
          end();
        } else {
          return;
        }
      }
    };
    const iterator: AsyncIterableIterator<AgentEvent> = {
      next: () => {
        if (state === 'ended') return Promise.resolve(finished());
        if (state === 'unstarted') {
          if (this.iteration !== 0) {
            state = 'ended';
            return Promise.reject(new ConfigurationError('This AgentRun is already being iterated; iterate a run once, or use agent.on(type, listener) for more consumers.'));
          }
          this.iteration = 1;
          state = 'reading';
          this.reader = settle;
        }
        return new Promise((resolve) => {
          waiting.push(resolve);
          settle();
        });
      },
      return: () => {
        end();
        return Promise.resolve(finished());
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }
}
