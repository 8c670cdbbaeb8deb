import type { AgentCore } from '../runtime/agent-core.js';

/** A running subagent's hold on a place. */
interface Holder {
  /** Whether it holds a place now (not while it waits on subagents of its own). */
  holds: boolean;
  /** How many of its foreground subagents it waits on. */
  waitingOn: number;
  /** Its run ended: a place it takes back late is given up at once. */
  ended: boolean;
}

/**
 * The bound on subagents at work at once across one agent's whole tree (`maxSubagentConcurrency`):
 * its subagents, theirs, and background tasks at every level share it. A subagent holds a place
 * while it runs, except while it waits on foreground subagents of its own: its place passes to the
 * first of them, and it takes one back, ahead of subagents not yet started, before it goes on. A
 * parent holding a place therefore never starves its children, however deep the tree.
 */
export class SubagentLimiter {
  #active = 0;
  /** Those waiting for a place, in the order they are served. */
  readonly #queue: Array<() => void> = [];
  readonly #holders = new WeakMap<AgentCore, Holder>();

  /** @param concurrency How many subagents may be at work at once. */
  constructor(readonly concurrency: number) {}

  /**
   * Runs `task` (the run of `child`) once a place is free, holding the place until it ends.
   * `waiter` is the subagent that waits on `child` (a foreground call): it lets go of its place
   * meanwhile. A background task, or a subagent of the agent itself, has none.
   */
  async run<T>(child: AgentCore, task: () => Promise<T>, waiter?: AgentCore): Promise<T> {
    const parent = waiter && this.#holders.get(waiter);
    if (!parent) return this.#hold(child, task, false);
    parent.waitingOn++;
    const inherited = parent.holds;
    parent.holds = false;
    try {
      return await this.#hold(child, task, inherited);
    } finally {
      await this.#reclaim(parent);
    }
  }

  async #hold<T>(child: AgentCore, task: () => Promise<T>, inherited: boolean): Promise<T> {
    if (!inherited) await this.#acquire(false);
    const holder: Holder = { holds: true, waitingOn: 0, ended: false };
    this.#holders.set(child, holder);
    try {
      return await task();
    } finally {
      holder.ended = true;
      this.#holders.delete(child);
      if (holder.holds) this.#release();
    }
  }

  /** The last of a parent's children is done: it takes a place again before its run goes on. */
  async #reclaim(parent: Holder): Promise<void> {
    parent.waitingOn--;
    if (parent.waitingOn > 0 || parent.ended) return;
    await this.#acquire(true);
    // Meanwhile it started another child, took a place through another call, or its run ended.
    if (parent.holds || parent.waitingOn > 0 || parent.ended) this.#release();
    else parent.holds = true;
  }

  #acquire(first: boolean): Promise<void> {
    if (this.#active < this.concurrency) {
      this.#active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => (first ? this.#queue.unshift(resolve) : this.#queue.push(resolve)));
  }

  /** A place is given up: straight to the next in line, if any. */
  #release(): void {
    const next = this.#queue.shift();
    if (next) next();
    else this.#active--;
  }
}
