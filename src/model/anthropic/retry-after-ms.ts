/**
 * How long an HTTP error response asks the client to wait before trying again, in milliseconds,
 * read as the Anthropic SDK reads it: `retry-after-ms` (milliseconds) first, else `retry-after`
 * (seconds, or an HTTP date). Undefined when neither header states a wait of zero or more (absent,
 * unparseable, negative, infinite, a date in the past).
 * @param headers - the response headers (`APIError.headers`).
 * @param now - the current time, for an HTTP date.
 */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const milliseconds = wait(headers?.get('retry-after-ms'), 1);
  if (milliseconds !== undefined) return milliseconds;
  const header = headers?.get('retry-after');
  if (!header) return undefined;
  const seconds = wait(header, 1000);
  if (seconds !== undefined || /^\s*[-+.\d]/.test(header)) return seconds;
  const date = Date.parse(header);
  return Number.isFinite(date) && date >= now ? date - now : undefined;
}

function wait(text: string | null | undefined, unit: number): number | undefined {
  if (!text || !/^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(text)) return undefined;
  const value = Number(text) * unit;
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}
