import { LONE_SURROGATE, wellFormedText } from './code-point-boundary.js';

/** True when `text` holds no lone surrogate (`String.prototype.isWellFormed` where it exists). */
function isWellFormedText(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return native ? native.call(text) : !LONE_SURROGATE.test(text);
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
  if (typeof value === 'string') return (isWellFormedText(value) ? value : wellFormedText(value)) as T;
  if (typeof value !== 'object' || value === null || keep?.(value)) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const clean = wellFormedValue(item, keep);
      if (clean !== item) (copy ??= [...value])[index] = clean;
    });
    return (copy ?? value) as T;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const clean = wellFormedValue(item, keep);
    const cleanKey = wellFormedValue(key);
    if (clean === item && cleanKey === key) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    if (cleanKey !== key) delete copy[key];
    copy[cleanKey] = clean;
  }
  return (copy ?? value) as T;
}
