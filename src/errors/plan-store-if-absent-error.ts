import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** Fields of a {@link PlanStoreIfAbsentError}. */
export interface PlanStoreIfAbsentErrorOptions {
  /** The plan store, as the error names it (its class name, or `the plan store` for a plain object). */
  store: string;
  /** The plan name that was written. */
  name: string;
  /** What reading the name back found: `another plan` or `no plan`. */
  found: 'another plan' | 'no plan';
}

/** The `code` of a {@link PlanStoreIfAbsentError}. */
const CODE = 'plan-store-if-absent';

/**
 * A plan store ignored `write(name, text, { ifAbsent: true })` (it resolved neither `true` nor
 * `false`) and reading the plan back showed that another writer's plan holds the name: two
 * sessions drew the same name at the same moment and the store let both write it. The plan was
 * not saved; the store must write `ifAbsent` atomically and say whether it wrote. Only a race
 * that overlaps the read back is caught: one whose second write lands after it, or that writes
 * the same text, cannot be seen through the `PlanStore` contract (no compare-and-set), so this
 * error is a warning sign, not a guarantee.
 */
export class PlanStoreIfAbsentError extends AgentHarnessError {
  /** The error's code, `plan-store-if-absent`. */
  static readonly code = CODE;
  /** The plan name that was written. */
  readonly planName: string;
  constructor(options: PlanStoreIfAbsentErrorOptions) {
    super(
      CODE,
      `${options.store} ignored write("${options.name}", text, { ifAbsent: true }) (it resolved undefined, not true or false), and reading "${options.name}" back found ${options.found}: ` +
        "another session wrote a plan under the same name at the same moment, and the store let both write. This session's plan was not saved. " +
        "Make the store's write(name, text, { ifAbsent: true }) write only where no plan is, in one atomic step, and resolve true when it wrote and false when it did not " +
        '(check it with planStoreConformance from agent-harness/testing); a wrapper over a store must pass the option on and return the inner store\'s answer.',
    );
    this.planName = options.name;
  }
  /** True for this error, also when thrown by another copy of the library. */
  static override isInstance = hasCode<PlanStoreIfAbsentError>(CODE);
}
