import { argumentError, isObjectValue } from '../../errors/argument-error.js';

/** One check of a conformance suite, runnable by any test runner. */
export interface ConformanceCase {
  /** What the case checks, e.g. `compare-and-append: a stale writer is refused, nothing is stored`. */
  name: string;
  /**
   * Runs the case against a fresh store. Rejects (with a `StoreConformanceFailure`, or the error
   * the store threw) when the store breaks the contract; resolves when it keeps it.
   */
  run: () => Promise<void>;
  /** Set when the case does not apply (the store declared it lacks the feature): why. */
  skip?: string;
}

/** A test function: vitest's, jest's, mocha's and `node:test`'s `it` all fit. */
export type ConformanceTestFunction = ((name: string, run: () => Promise<void>) => unknown) & {
  skip?: (name: string, run: () => Promise<void>) => unknown;
};

/** Options of {@link describeConformance}. */
export interface DescribeConformanceOptions {
  /** The title of the group, e.g. `postgresSessionStore conformance`. */
  title: string;
  /** The cases, from `sessionStoreConformance()` or `planStoreConformance()`. */
  cases: readonly ConformanceCase[];
  /** Your runner's `describe`. */
  describe: (name: string, body: () => void) => unknown;
  /** Your runner's `it` (or `test`); cases that do not apply go to `it.skip` when it has one. */
  it: ConformanceTestFunction;
}

/**
 * Registers conformance cases with a `describe`/`it` test runner (vitest, jest, mocha,
 * `node:test`). For other runners, loop over the cases yourself: each has a `name` and a `run()`.
 * Raise the runner's timeout to about a minute for stores over a network: the large-session
 * cases write 10,000 entries and a 1 MB entry.
 * @example
 * import { describe, it } from 'vitest';
 * describeConformance({ title: 'my store', cases: sessionStoreConformance({ create }), describe, it });
 */
export function describeConformance(options: DescribeConformanceOptions): void {
  if (!isObjectValue(options) || typeof options.describe !== 'function' || typeof options.it !== 'function' || !Array.isArray(options.cases) || typeof options.title !== 'string') throw argumentError('describeConformance', 'options', "an object ({ title, cases, describe, it }) with your test runner's describe and it", options);
  const { it } = options;
  options.describe(options.title, () => {
    for (const testCase of options.cases) {
      if (testCase.skip === undefined) it(testCase.name, testCase.run);
      else if (it.skip) it.skip(`${testCase.name} (${testCase.skip})`, testCase.run);
    }
  });
}
