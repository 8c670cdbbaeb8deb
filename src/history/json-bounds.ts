/** Limits for {@link jsonBoundsProblem}. */
export interface JsonBounds {
  /** Deepest nesting of arrays and objects. */
  maxDepth: number;
  /** Most characters of strings and keys, summed. */
  maxChars: number;
  /** Most values (objects, arrays, strings, numbers, …), counted. */
  maxNodes: number;
}

/** The bounds a tool input (from the model, a hook or the host) must stay within. */
export const TOOL_INPUT_BOUNDS: JsonBounds = { maxDepth: 64, maxChars: 8_000_000, maxNodes: 1_000_000 };

/**
 * Checks, without recursion (so a hostile value cannot overflow the stack), that a value is
 * plain JSON within the bounds: objects, arrays, strings, finite numbers, booleans and null, no
 * cycles. Returns the problem as a short phrase ("nested deeper than 64 levels"), or undefined.
 */
export function jsonBoundsProblem(value: unknown, bounds: JsonBounds): string | undefined {
  // Most tool inputs are one flat object of strings, numbers, booleans and nulls: checked in one
  // loop, with no stack. Anything else (or a flat object near the bounds) takes the full walk.
  const flat = flatObjectProblem(value, bounds);
  return flat === NOT_FLAT ? walkedProblem(value, bounds) : flat;
}

/** What {@link flatObjectProblem} returns for a value it leaves to the full walk. */
const NOT_FLAT = Symbol('not flat');

/**
 * {@link jsonBoundsProblem} for a plain object whose values are all strings, numbers, booleans or
 * nulls: the same answer as the full walk (checks in the walk's order, its values last to first),
 * or `NOT_FLAT` for any other value.
 */
function flatObjectProblem(value: unknown, bounds: JsonBounds): string | undefined | typeof NOT_FLAT {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || bounds.maxDepth < 1) return NOT_FLAT;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // With every value counted within the bound, the walk's only node check cannot fail.
  if (keys.length + 1 > bounds.maxNodes) return NOT_FLAT;
  // As the walk: the keys are counted when the object is read, before any of its values.
  let chars = 0;
  for (let index = 0; index < keys.length; index++) chars += keys[index]!.length;
  if (chars > bounds.maxChars) return `longer than ${bounds.maxChars} characters`;
  for (let index = keys.length - 1; index >= 0; index--) {
    const item = record[keys[index]!];
    if (item === null || typeof item === 'boolean') continue;
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return 'not plain JSON (a number that is not finite)';
      continue;
    }
    if (typeof item === 'string') {
      chars += item.length;
      if (chars > bounds.maxChars) return `longer than ${bounds.maxChars} characters`;
      continue;
    }
    // A nested object or array: the walk goes on from the start (the checks so far found nothing).
    if (typeof item === 'object') return NOT_FLAT;
    return `not plain JSON (it holds a ${typeof item})`;
  }
  return undefined;
}

/** {@link jsonBoundsProblem} by the full walk, for any value. Exported for the tests that hold the two paths equal. */
export function walkedProblem(value: unknown, bounds: JsonBounds): string | undefined {
  // Depth-first with an explicit stack of values and their depths (no object per value: this
  // runs on every tool input). `path` holds the containers above the value being read: when a
  // value at depth d comes off the stack, every container deeper than d is finished.
  const values: unknown[] = [value];
  const depths: number[] = [0];
  const path: object[] = [];
  let chars = 0;
  let nodes = 0;
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()!;
    if (++nodes > bounds.maxNodes) return `made of more than ${bounds.maxNodes} values`;
    if (current === null || typeof current === 'boolean') continue;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return 'not plain JSON (a number that is not finite)';
      continue;
    }
    if (typeof current === 'string') {
      chars += current.length;
      if (chars > bounds.maxChars) return `longer than ${bounds.maxChars} characters`;
      continue;
    }
    if (typeof current !== 'object') return `not plain JSON (it holds a ${typeof current})`;
    if (depth >= bounds.maxDepth) return `nested deeper than ${bounds.maxDepth} levels`;
    path.length = depth;
    // A value seen twice on one path is a cycle; shared (non-cyclic) references are fine as JSON.
    // The path is at most maxDepth long, so the search is bounded like the depth.
    if (path.includes(current)) return 'not plain JSON (it refers to itself)';
    path.push(current);
    if (Array.isArray(current)) {
      // Every element is a value: a longer array is over the bound before any is pushed (a host's
      // `new Array(2 ** 32 - 1)` would otherwise be walked hole by hole).
      if (current.length > bounds.maxNodes - nodes) return `made of more than ${bounds.maxNodes} values`;
      for (const child of current) {
        values.push(child);
        depths.push(depth + 1);
      }
      continue;
    }
    for (const key of Object.keys(current)) {
      chars += key.length;
      values.push((current as Record<string, unknown>)[key]);
      depths.push(depth + 1);
    }
    if (chars > bounds.maxChars) return `longer than ${bounds.maxChars} characters`;
  }
  return undefined;
}
