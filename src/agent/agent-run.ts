import { ConfigurationError } from '../errors/configuration-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { RunResult } from '../events/run-result.js';

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
  private wake: (() => void) | undefined;
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
      this.wake?.();
    });
  }

  private push(event: AgentEvent): void {
    if (this.iteration === 2 || (this.iteration === 0 && !this.keepForLate)) return;
    this.buffer.push(event);
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    if (this.iteration !== 0) throw new ConfigurationError('This AgentRun is already being iterated; iterate a run once, or use agent.on(type, listener) for more consumers.');
    this.iteration = 1;
    let index = 0;
    try {
      for (;;) {
        if (index < this.buffer.length) {
          const event = this.buffer[index]!;
          // Drop consumed events so a long run does not hold them all.
          this.buffer[index++] = undefined as never;
          yield event;
          continue;
        }
        if (this.done) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      // A run is iterated once: what comes after the iteration ends has no reader.
      this.iteration = 2;
      this.buffer.length = 0;
    }
  }
}
