import { LONE_SURROGATE, wellFormedText } from './code-point-boundary.js';

const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** True when `text` holds no lone surrogate (`String.prototype.isWellFormed` where it exists). */
function isWellFormedText(text: string): boolean {
  return nativeIsWellFormed ? nativeIsWellFormed.call(text) : !LONE_SURROGATE.test(text);
}

/** Strings at least this long are scanned once per object that holds them (see {@link checkedText}). */
const LONG_TEXT = 4096;

/**
 * For an object whose long string field was found well-formed: that string. A string cannot
 * change, so while the field holds the same string it is not scanned again: a tool result's text
 * is checked with its `tool-result` entry, and the user message carrying the same block is not
 * scanned a second time (a 50 KB text outside Latin-1 took about 25 µs a scan here). A field
 * given another string is compared with it, then scanned. Keyed weakly: nothing is kept beyond
 * the object.
 */
const checkedText = new WeakMap<object, string>();

/**
 * Records that `holder`'s field holds `text`, known to hold no lone surrogate (made by
 * `wellFormedText`), so that checking `holder` does not scan it. For a text shorter than the
 * remembered ones this does nothing. @internal
 */
export function rememberWellFormedText(holder: object, text: string): void {
  if (text.length >= LONG_TEXT) checkedText.set(holder, text);
}

/**
 * `value` with every lone surrogate in its strings (object keys included) replaced by U+FFFD,
 * so the Messages API takes it: the same value, not a copy, when it has none (the common case
 * costs one scan of its strings); otherwise a copy of the changed path only. Plain JSON data
 * (strings, arrays, plain objects); anything else is returned as it is.
 * @param value - A message, a content block, a tool input: JSON data.
 * @param keep - Blocks to leave exactly as they are (thinking, whose signature covers its text).
 */
export function wellFormedValue<T>(value: T, keep?: (value: object) => boolean): T {
  // Every entry of a session goes through here: the common case walks it once without allocating.
  return isWellFormedValue(value, keep) ? value : repaired(value, keep);
}

/** True when no string of `value` (object keys included) holds a lone surrogate; allocates nothing. */
function isWellFormedValue(value: unknown, keep: ((value: object) => boolean) | undefined): boolean {
  if (typeof value === 'string') return isWellFormedText(value);
  if (typeof value !== 'object' || value === null || keep?.(value)) return true;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (!isWellFormedValue(value[index], keep)) return false;
    return true;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return true;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    if (!isWellFormedText(key)) return false;
    const field = record[key];
    if (typeof field === 'string' && field.length >= LONG_TEXT) {
      if (checkedText.get(record) === field) continue;
      if (!isWellFormedText(field)) return false;
      checkedText.set(record, field);
    } else if (!isWellFormedValue(field, keep)) return false;
  }
  return true;
}

/** `value` with its lone surrogates replaced: a copy of the changed path only. */
function repaired<T>(value: T, keep: ((value: object) => boolean) | undefined): T {
  if (typeof value === 'string') return (isWellFormedText(value) ? value : wellFormedText(value)) as T;
  if (typeof value !== 'object' || value === null || keep?.(value)) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const clean = repaired(item, keep);
      if (clean !== item) (copy ??= [...value])[index] = clean;
    });
    return (copy ?? value) as T;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const clean = repaired(item, keep);
    const cleanKey = repaired(key, undefined);
    if (clean === item && cleanKey === key) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    if (cleanKey !== key) delete copy[key];
    copy[cleanKey] = clean;
  }
  return (copy ?? value) as T;
}
