/**
 * `{"$schemaVersion":N,"id":"…"`: how the library writes an entry's beginning, with an id that
 * holds no escape (so the characters between the quotes are the id itself).
 */
const LEADING_ID = /^\{"\$schemaVersion":\d+,"id":"([^"\\]*)"/;

/**
 * The `id` of an entry stored as `text`, a `JSON.stringify` of it: read from the text's beginning
 * when it begins as the library writes an entry, else parsed. `JSON.stringify` writes no key
 * twice, so the id at the beginning is the one a parse would give; no other text may be passed.
 * @throws SyntaxError when `text` must be parsed and is no JSON.
 */
export function storedEntryId(text: string): unknown {
  const leading = LEADING_ID.exec(text);
  return leading !== null ? leading[1] : (JSON.parse(text) as { id?: unknown } | null)?.id;
}
