/**
 * `JSON.stringify(value)`, or `''` when it writes nothing (`undefined`, a function) or cannot
 * write the value (a cycle, a BigInt, nesting deeper than the stack): for text that is only
 * counted or shown, where such a value must not throw.
 */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
