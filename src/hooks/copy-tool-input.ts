/**
 * A copy of a tool input for a host callback (a hook, `canUseTool`): what the callback changes in
 * place then reaches neither the call that runs nor the `tool_use` block in the history, which for
 * a JSON Schema tool is the very object that was validated. The documented way to change an input
 * is `updatedInput`, which is validated again. A value that cannot be copied (a function made by a
 * schema's transform) is handed over as it is.
 */
export function copyToolInput(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return input;
  // Most inputs are one plain object of strings, numbers and booleans (a path, a command); its
  // copy is what structuredClone makes, without the serializer's cost (about 2 µs, every turn's
  // tool-call event).
  const flat = flatCopy(input);
  if (flat) return flat;
  try {
    return structuredClone(input);
  } catch {
    return input;
  }
}

/** A copy of a plain object whose own values are all primitives structuredClone copies, or undefined. */
function flatCopy(input: object): object | undefined {
  const prototype = Object.getPrototypeOf(input);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    // An own "__proto__" (JSON.parse makes one) would reach the prototype setter of the copy.
    if (key === '__proto__') return undefined;
    const value = (input as Record<string, unknown>)[key];
    const type = typeof value;
    if (value !== null && type !== 'string' && type !== 'number' && type !== 'boolean' && type !== 'undefined' && type !== 'bigint') return undefined;
    copy[key] = value;
  }
  return copy;
}
