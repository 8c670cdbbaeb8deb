/**
 * `table[key]` when `key` is the table's own (undefined otherwise): for tables looked up by a key
 * from the model, the host or a file, where `constructor`, `toString` or `__proto__` must find
 * nothing rather than a member of `Object.prototype`. See also `setOwnField`.
 */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
