/**
 * Sets `target[key]` as an own, enumerable field, even for the key `__proto__` (which a plain
 * assignment would take as the object's prototype), as `JSON.parse` does: for objects built from
 * keys that come from the wire or the model.
 */
export function setOwnField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
