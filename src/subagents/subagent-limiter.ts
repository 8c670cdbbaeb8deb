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
   * meanwhile. A background task, a subagent of the agent itself, or the plan verifier has none.
   * When `signal` (the waiting run's) aborts before a place was free, `task` never runs and the
   * call rejects with the signal's reason; aborted while `waiter` waits to take its place back, it
   * stops waiting too (its run is ending: it takes no place back).
   */
  async run<T>(child: AgentCore, task: () => Promise<T>, options: { waiter?: AgentCore; signal?: AbortSignal } = {}): Promise<T> {
    const parent = options.waiter && this.#holders.get(options.waiter);
    if (!parent) return this.#hold(child, task, false, options.signal);
    parent.waitingOn++;
    const inherited = parent.holds;
    parent.holds = false;
    try {
      return await this.#hold(child, task, inherited, options.signal);
    } finally {
      await this.#reclaim(parent, options.signal);
    }
  }

  async #hold<T>(child: AgentCore, task: () => Promise<T>, inherited: boolean, signal: AbortSignal | undefined): Promise<T> {
    if (!inherited) await this.#acquire(false, signal);
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
  async #reclaim(parent: Holder, signal: AbortSignal | undefined): Promise<void> {
    parent.waitingOn--;
    if (parent.waitingOn > 0 || parent.ended) return;
    try {
      await this.#acquire(true, signal);
    } catch {
      // Interrupted: its run goes no further, so it needs no place (its call's outcome stands).
      return;
    }
    // Meanwhile it started another child, took a place through another call, or its run ended.
    if (parent.holds || parent.waitingOn > 0 || parent.ended) this.#release();
    else parent.holds = true;
  }

  #acquire(first: boolean, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#active < this.concurrency) {
      this.#active++;
      return Promise.resolve();
    }
    if (!signal) return new Promise((resolve) => (first ? this.#queue.unshift(resolve) : this.#queue.push(resolve)));
    return new Promise((resolve, reject) => {
      const served = () => (signal.removeEventListener('abort', gaveUp), resolve());
      // Out of the line: the place it would have had goes to the next one.
      const gaveUp = () => (this.#queue.splice(this.#queue.indexOf(served), 1), reject(signal.reason));
      signal.addEventListener('abort', gaveUp, { once: true });
      if (first) this.#queue.unshift(served);
      else this.#queue.push(served);
    });
  }

  /** A place is given up: straight to the next in line, if any. */
  #release(): void {
    const next = this.#queue.shift();
    if (next) next();
    else this.#active--;
  }
}

const treeLimiters = new WeakMap<AgentCore, SubagentLimiter>();

/**
 * The subagent limiter of `core`'s agent tree: its top agent's, made when first used with that
 * agent's `maxSubagentConcurrency` (default 4). Every subagent below it, background tasks and the
 * plan verifier share it; a fork or a resumed agent is a new top agent with a limiter of its own.
 */
export function subagentLimiterOf(core: AgentCore): SubagentLimiter {
  let top = core;
  while (top.sessionParent) top = top.sessionParent;
  let limiter = treeLimiters.get(top);
  if (!limiter) treeLimiters.set(top, (limiter = new SubagentLimiter(top.options.maxSubagentConcurrency ?? 4)));
  return limiter;
}
