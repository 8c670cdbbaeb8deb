import { describeOptionValue } from '../errors/describe-option-value.js';

/**
 * A value's JSON for an error message about what a host returned, or — when JSON cannot write it
 * (a bigint, a cycle, a throwing `toJSON`) or writes nothing (a function, `undefined`) — its
 * {@link describeOptionValue} description. Never throws.
 * @internal
 */
export function describeJson(value: unknown): string {
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    // Described below.
  }
  return describeOptionValue(value);
}
