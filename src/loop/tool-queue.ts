import type PQueue from 'p-queue';

/**
 * p-queue, loaded the first time a group of calls outgrows the bound: most hosts never need it, and
 * an import that loads it pays its parsing. A load that failed (a file briefly unreadable during a
 * deploy, say) is forgotten, so the next group of calls tries again rather than failing forever.
 */
let loading: Promise<typeof PQueue> | undefined;
const loadPQueue = () =>
  (loading ??= import('./p-queue-class.js').then(
    (module) => module.PQueueClass,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  ));

/**
 * The bound on a run's parallel tool calls (`maxToolConcurrency`). The p-queue behind it is made
 * (and its module loaded) only when a group of calls is larger than the bound: most turns run one
 * call, or a few within it, directly, and an idle agent holds no queue.
 */
export class ToolQueue {
  #queue: PQueue | undefined;
  /** Calls added while p-queue was still loading. */
  #waiting = 0;

  constructor(readonly concurrency: number) {}

  /** Whether nothing is queued or running through the queue. */
  get idle(): boolean {
    const queue = this.#queue;
    return this.#waiting === 0 && (queue === undefined || (queue.size === 0 && queue.pending === 0));
  }

  /** Runs `task` when a slot is free (calls run in the order they were added). */
  add(task: () => Promise<void>): Promise<void> {
    const queue = this.#queue;
    if (queue) return queue.add(task) as Promise<void>;
    this.#waiting++;
    // Every call added meanwhile waits on the same load and resumes in the order it was added.
    return loadPQueue().then((Queue) => {
      this.#waiting--;
      return (this.#queue ??= new Queue({ concurrency: this.concurrency })).add(task) as Promise<void>;
    }, (error: unknown) => {
      this.#waiting--;
      throw error;
    });
  }
}
