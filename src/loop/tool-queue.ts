import PQueue from 'p-queue';

/**
 * The bound on a run's parallel tool calls (`maxToolConcurrency`). The p-queue behind it is made
 * only when a group of calls is larger than the bound: most turns run one call, or a few within
 * it, directly, and an idle agent holds no queue.
 */
export class ToolQueue {
  #queue: PQueue | undefined;

  constructor(readonly concurrency: number) {}

  /** Whether nothing is queued or running through the queue. */
  get idle(): boolean {
    return this.#queue === undefined || (this.#queue.size === 0 && this.#queue.pending === 0);
  }

  /** Runs `task` when a slot is free. */
  add(task: () => Promise<void>): Promise<void> {
    return (this.#queue ??= new PQueue({ concurrency: this.concurrency })).add(task) as Promise<void>;
  }
}
