/** The longest description of a value in a message. */
const LIMIT = 60;

/**
 * The start of a value's JSON, reading only as much of it as it shows (a huge array costs no
 * more than a small one); a cycle, a throwing getter or a function inside reads as `…`.
 */
function preview(value: unknown, budget: number, seen: Set<object>): string {
  if (budget <= 0) return '…';
  if (typeof value === 'string') return JSON.stringify(value.length > budget ? value.slice(0, budget) : value);
  if (typeof value !== 'object' || value === null) return typeof value === 'function' || typeof value === 'symbol' || value === undefined ? 'null' : String(value);
  if (seen.has(value)) return '…';
  seen.add(value);
  try {
    const array = Array.isArray(value);
    let out = array ? '[' : '{';
    const keys = array ? undefined : Object.keys(value);
    const count = array ? (value as unknown[]).length : keys!.length;
    for (let index = 0; index < count && out.length < budget; index++) {
      const item = array ? (value as unknown[])[index] : (value as Record<string, unknown>)[keys![index]!];
      out += `${index ? ',' : ''}${array ? '' : `${JSON.stringify(keys![index])}:`}${preview(item, budget - out.length, seen)}`;
    }
    return `${out}${array ? ']' : '}'}`;
  } catch {
    return '…';
  } finally {
    seen.delete(value);
  }
}

/**
 * A short description of an option's value for an error message: `the string "false"`, `a
 * function`, `a Map`, `null`, or the start of its JSON. Never throws.
 */
export function describeOptionValue(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'string':
      return `the string ${shorten(preview(value, LIMIT, new Set()))}`;
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    case 'bigint':
      return `the bigint ${String(value)}`;
    case 'number':
    case 'boolean':
      return String(value); // NaN and Infinity too, which JSON would call null
    default: {
      if (value === null) return 'null';
      const prototype = Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null;
      const name = prototype?.constructor?.name;
      if (!Array.isArray(value) && prototype !== null && prototype !== Object.prototype && typeof name === 'string' && name !== '') return `a ${name}`;
      return shorten(preview(value, LIMIT, new Set()));
    }
  }
}

function shorten(text: string): string {
  return text.length > LIMIT ? `${text.slice(0, LIMIT - 3)}...` : text;
}
