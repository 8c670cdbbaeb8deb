import { checkOptions, isAbortSignal, isBoolean, isNonEmptyString, isNonNegativeInteger, isSchema, isString, oneOf, type OptionsSpec } from '../options/index.js';
import { FORK_OPTIONS } from '../session/validate-fork-session-options.js';
import type { CloseOptions } from './close-options.js';
import type { CompactOptions } from './compact-options.js';
import type { RunOptions } from './run-options.js';
import type { ForkOptions } from '../session/fork-state.js';

const RUN_OPTIONS: OptionsSpec<RunOptions> = {
  signal: isAbortSignal,
  outputSchema: isSchema,
  outputRetries: isNonNegativeInteger,
  outputMode: oneOf(['native', 'tool', 'text']),
  runId: isNonEmptyString,
  bufferEvents: isBoolean,
};

const CLOSE_OPTIONS: OptionsSpec<CloseOptions> = { reason: isString, signal: isAbortSignal };

/**
 * Checks the options of `agent.run()`, `agent.resolveApproval()` and `agent.continue()`.
 * @param owner - the call, for the message.
 * @throws ConfigurationError for an unknown option (with the nearest name) or a value of the wrong type.
 */
export function validateRunOptions(options: unknown, owner: 'agent.run' | 'agent.resolveApproval' | 'agent.continue'): asserts options is RunOptions {
  checkOptions<RunOptions>(options, RUN_OPTIONS, {
    owner,
    optional: true,
    hints: { abortController: 'pass its signal: { signal: controller.signal }.', maxTurns: "`maxTurns` is createAgent's option." },
  });
}

/**
 * Checks the options of `agent.fork()`.
 * @throws ConfigurationError for an unknown option (with the nearest name) or a value of the wrong type.
 */
export function validateForkOptions(options: unknown): asserts options is ForkOptions {
  checkOptions<ForkOptions>(options, FORK_OPTIONS, { owner: 'agent.fork', optional: true });
}

/**
 * Checks the options of `agent.close()`.
 * @throws ConfigurationError for an unknown option, a reason that is not a string or a signal that is not an AbortSignal.
 */
export function validateCloseOptions(options: unknown): asserts options is CloseOptions {
  checkOptions<CloseOptions>(options, CLOSE_OPTIONS, { owner: 'agent.close', optional: true });
}

const COMPACT_OPTIONS: OptionsSpec<CompactOptions> = { instructions: isString, signal: isAbortSignal };

/**
 * Checks the options of `agent.compact()`.
 * @throws ConfigurationError for an unknown option (with the nearest name) or a value of the wrong type.
 */
export function validateCompactOptions(options: unknown): asserts options is CompactOptions {
  checkOptions<CompactOptions>(options, COMPACT_OPTIONS, { owner: 'agent.compact', optional: true });
}
