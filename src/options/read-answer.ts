/** Every field name of any member of the union `T` (`keyof` of a union gives only the shared ones). */
export type AnswerField<T> = T extends unknown ? keyof T & string : never;

/**
 * A host's answer (from `canUseTool`, a hook, a classifier) as a plain object read once, where a
 * failure to read it counts as the callback failing: its own enumerable fields copied, then each
 * documented field in `fields` that is not one of them read by name (a getter on a class's
 * prototype, a Proxy's `get`), every getter run once, now, inside the caller's try. Anything
 * that is not a plain object is returned as it is. Checked and used afterwards, the copy cannot
 * throw or change between two reads.
 * @param fields - The fields the caller reads. Undocumented own fields are copied too, so an error
 * about the answer can show what the host wrote (a misspelt `behaviour`, say).
 * @throws whatever reading the answer throws (a getter, a Proxy trap).
 */
export function readAnswer(value: unknown, fields: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  for (const field of fields) {
    if (Object.hasOwn(copy, field)) continue;
    // Not an own enumerable field: a prototype getter, a non-enumerable field, a Proxy's answer.
    const read = (value as Record<string, unknown>)[field];
    if (read !== undefined) copy[field] = read;
  }
  return copy;
}
