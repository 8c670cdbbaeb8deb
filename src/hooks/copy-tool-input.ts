/**
 * A copy of a tool input for a host callback (a hook, `canUseTool`): what the callback changes in
 * place then reaches neither the call that runs nor the `tool_use` block in the history, which for
 * a JSON Schema tool is the very object that was validated. The documented way to change an input
 * is `updatedInput`, which is validated again. A value that cannot be copied (a function made by a
 * schema's transform) is handed over as it is.
 */
export function copyToolInput(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return input;
  try {
    return structuredClone(input);
  } catch {
    return input;
  }
}
