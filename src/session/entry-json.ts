import { ConfigurationError } from '../errors/configuration-error.js';

/** `{`: how the JSON of an object begins (`JSON.stringify` writes no leading space). */
const OPEN_BRACE = 0x7b;

/**
 * An appended entry written as JSON for a store to keep: `JSON.stringify(entry)`, refused unless
 * it writes as a JSON object. Without the check an entry whose `toJSON` returns `undefined`, a
 * string or an array would be kept as a transcript line no load reads (`undefined`, `"…"`, `[…]`),
 * and a value JSON cannot hold (a BigInt, a cycle) would throw `JSON.stringify`'s bare TypeError.
 * @param storeName - The store, as its errors name it (`fileSessionStore`).
 * @param value - What to write: the entry, or the store's own arrangement of its fields.
 * @param index - The entry's place in the append, from 0.
 * @throws ConfigurationError naming the entry's place and session, the store having stored nothing.
 */
export function entryJson(storeName: string, sessionId: string, value: unknown, index: number): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value) as string | undefined;
  } catch (cause) {
    throw new ConfigurationError(
      `${storeName}.append cannot write entry ${index + 1} of session ${JSON.stringify(sessionId)} as JSON (${String((cause as Error).message).split('\n')[0]}): ` +
        'an entry holds JSON values only (no BigInt, no cycle). Nothing was stored.',
      { cause },
    );
  }
  if (typeof text === 'string' && text.charCodeAt(0) === OPEN_BRACE) return text;
  const written = text === undefined ? 'nothing' : `${text.length > 40 ? `${text.slice(0, 40)}…` : text}`;
  throw new ConfigurationError(
    `${storeName}.append got entry ${index + 1} of session ${JSON.stringify(sessionId)}, which writes as ${written} in JSON, not as an object: ` +
      'an entry is a plain object (one with a toJSON method must return one). Nothing was stored.',
  );
}
