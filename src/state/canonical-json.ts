/**
 * JSON with object keys sorted at every level and no whitespace: the same text for the same
 * value however it was stored (a JSONB column, another language's serializer reorder keys).
 * `undefined` object fields are left out, as `JSON.stringify` does. Call it on values within
 * known depth bounds (it recurses).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}
