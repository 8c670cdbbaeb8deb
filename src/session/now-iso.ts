/** The millisecond {@link nowIso} last formatted, and its text. */
let formattedAt = Number.NaN;
let formatted = '';

/**
 * `new Date().toISOString()`, formatted once per millisecond: the journal stamps every entry with
 * the time, several entries share a millisecond, and formatting a date costs about 0.6 µs on
 * Node 20 against 0.05 µs for `Date.now()`. Follows `Date.now()` (a host's fake clock too).
 */
export function nowIso(): string {
  const now = Date.now();
  if (now !== formattedAt) {
    formatted = new Date(now).toISOString();
    formattedAt = now;
  }
  return formatted;
}
