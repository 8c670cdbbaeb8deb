import { estimateCost, type ModelPrice } from './pricing.js';
import type { Usage } from './usage.js';

/**
 * The running cost of a run and of every run nested in it (its subagents and theirs, in parallel
 * or one after another), one total shared by all of them while they run: each model call adds
 * its cost, at its own model's price, as soon as it returns, and each run checks the total
 * against the budget before its next model call. So a subagent stops once the whole run — the
 * parent's calls so far and every subagent's — reached `maxBudgetUsd`, not its own share.
 */
export class RunSpend {
  /** The outermost agent's `maxBudgetUsd`; undefined for no budget. */
  readonly budgetUsd: number | undefined;
  private spentUsd = 0;
  /** False once a call of a model without a price was counted: the total is then unknown. */
  private priced = true;

  /** @param budgetUsd - the budget the run tree stops at; undefined for none. */
  constructor(budgetUsd: number | undefined) {
    this.budgetUsd = budgetUsd;
  }

  /**
   * Counts one model call.
   * @param price - its model's price; undefined when the price table has none.
   */
  add(usage: Usage, price: ModelPrice | undefined): void {
    if (price) this.spentUsd += estimateCost(usage, price);
    else this.priced = false;
  }

  /** The estimated cost so far in US dollars; undefined once a call could not be priced. */
  get costUsd(): number | undefined {
    return this.priced ? this.spentUsd : undefined;
  }

  /** True once the estimated cost reached the budget (never without a budget or a known cost). */
  get exhausted(): boolean {
    const cost = this.costUsd;
    return this.budgetUsd !== undefined && cost !== undefined && cost >= this.budgetUsd;
  }
}
