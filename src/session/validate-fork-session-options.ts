import { checkOptions, isNonEmptyString, isNonNegativeInteger, isPlanStore, isSessionStore, type OptionsSpec } from '../options/index.js';
import type { ForkSessionOptions } from './fork-session.js';
import type { ForkOptions } from './fork-state.js';

/** The options of `agent.fork()`; `forkSession` takes these and more. */
export const FORK_OPTIONS: OptionsSpec<ForkOptions> = { upTo: isNonNegativeInteger, sessionId: isNonEmptyString };

const OPTIONS: OptionsSpec<ForkSessionOptions> = { ...FORK_OPTIONS, planStore: isPlanStore };

/**
 * Checks the arguments of `forkSession`: its store has the methods of a `SessionStore`, and its options.
 * @throws ConfigurationError for a store without them, an unknown option (with the nearest name) or a value of the wrong type.
 */
export function validateForkSessionOptions(store: unknown, options: unknown): asserts options is ForkSessionOptions {
  isSessionStore(store, { owner: 'forkSession', path: 'store' });
  checkOptions<ForkSessionOptions>(options, OPTIONS, { owner: 'forkSession', optional: true });
}
