import { checkOptions, isNonEmptyString, isNonNegativeInteger, isPlainObject, type OptionsSpec } from '../options/index.js';
import type { ForkSessionOptions } from './fork-session.js';
import type { ForkOptions } from './fork-state.js';

/** The options of `agent.fork()`; `forkSession` takes these and more. */
export const FORK_OPTIONS: OptionsSpec<ForkOptions> = { upTo: isNonNegativeInteger, sessionId: isNonEmptyString };

const OPTIONS: OptionsSpec<ForkSessionOptions> = { ...FORK_OPTIONS, planStore: isPlainObject };

/**
 * Checks the options of `forkSession`.
 * @throws ConfigurationError for an unknown option (with the nearest name) or a value of the wrong type.
 */
export function validateForkSessionOptions(options: unknown): asserts options is ForkSessionOptions {
  checkOptions<ForkSessionOptions>(options, OPTIONS, { owner: 'forkSession', optional: true });
}
