import { ConfigurationError } from './configuration-error.js';
import { describeOptionValue } from './describe-option-value.js';

/**
 * The error for a public function's argument of the wrong kind: a {@link ConfigurationError}
 * naming the function, the argument, what it takes and what it got (`estimateTextTokens:
 * \`text\` must be a string, got 42.`), instead of a `TypeError` from somewhere inside. The
 * function tests what it reads at once (a `typeof`, cheap on a hot path); the message is built
 * only on failure, and the shape of the contents stays the types' business.
 * @param owner - The function, e.g. `applyEntry`.
 * @param name - The argument's name.
 * @param expected - What it takes, said after "must be": `a session state (createSessionState())`.
 */
export function argumentError(owner: string, name: string, expected: string, value: unknown): ConfigurationError {
  return new ConfigurationError(`${owner}: \`${name}\` must be ${expected}, got ${describeOptionValue(value)}.`);
}

/** A plain object or a class instance: not null, not an array, not a function. (Not a type guard: the argument keeps its declared type.) */
export const isObjectValue = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An array whose every item passes `item` (not a type guard, as {@link isObjectValue}). */
export const isArrayOf = (value: unknown, item: (value: unknown) => boolean): boolean => Array.isArray(value) && value.every(item);

/** An array, or any other object with `Symbol.iterator` (a string is not taken for a list). */
export const isIterable = (value: unknown): boolean => typeof value === 'object' && value !== null && typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
