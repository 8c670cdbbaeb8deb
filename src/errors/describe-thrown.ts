/**
 * The text of a thrown (or rejected) value for an error message; never throws. An Error gives its
 * message, a string itself, anything else `String(value)` — and a value that cannot be turned
 * into a string (`Object.create(null)`, an object whose `toString` or `Symbol.toPrimitive`
 * throws) reads as `a thrown object with no text form`, so describing a failure never fails again.
 * @internal
 */
export function describeThrown(value: unknown): string {
  try {
    if (value instanceof Error && typeof value.message === 'string') return value.message;
    return String(value);
  } catch {
    return 'a thrown object with no text form';
  }
}

/**
 * `value` itself when it is an Error, else a new Error with {@link describeThrown}'s text and
 * `value` as its `cause`. Never throws.
 * @internal
 */
export function toError(value: unknown): Error {
  try {
    if (value instanceof Error) return value;
  } catch {
    // A proxy whose prototype cannot be read is not an Error we can trust.
  }
  return new Error(describeThrown(value), { cause: value });
}
