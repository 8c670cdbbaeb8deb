/**
 * A host's answer (from `canUseTool`, a hook, a classifier) as a plain object read once, where a
 * failure to read it counts as the callback failing: its own enumerable fields copied (a getter
 * runs now, inside the caller's try), anything that is not a plain object returned as it is.
 * Checked and used afterwards, the copy cannot throw or change between two reads.
 * @throws whatever reading the answer throws (a getter, a Proxy trap).
 */
export function readAnswer(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return { ...value };
}
