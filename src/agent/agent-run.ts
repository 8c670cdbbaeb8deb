import type { AgentEvent } from '../events/agent-event.js';
import type { RunResult } from '../events/run-result.js';

/**
 * One run of an agent: iterate it for events (`for await (const event of run)`), or await
 * `run.result`. The run starts at once whether or not anyone iterates; events are buffered for
 * a late iterator. Each run can be iterated once.
 */
export class AgentRun<Output = unknown> implements AsyncIterable<AgentEvent> {
  /** The run's id, also on `run-start` and in the result. */
  readonly runId: string;
  /** Resolves when the run ends; never rejects (failures end with status `error`). */
  readonly result: Promise<RunResult<Output>>;
  private readonly buffer: AgentEvent[] = [];
  private done = false;
  private wake: (() => void) | undefined;
  private iterated = false;

  /** @internal */
  constructor(runId: string, start: (push: (event: AgentEvent) => void) => Promise<RunResult>) {
    this.runId = runId;
    this.result = (start((event) => this.push(event)) as Promise<RunResult<Output>>).finally(() => {
      this.done = true;
      this.wake?.();
    });
  }

  private push(event: AgentEvent): void {
    this.buffer.push(event);
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    if (this.iterated) throw new Error('This AgentRun is already being iterated; iterate a run once, or use agent.on(type, listener) for more consumers.');
    this.iterated = true;
    let index = 0;
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
  }
}
