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
  // `leave` marks the end of an object's children: it is no longer on the current path.
  const stack: Array<{ value: unknown; depth: number; leave?: object }> = [{ value, depth: 0 }];
  const open = new Set<object>();
  let chars = 0;
  let nodes = 0;
  while (stack.length > 0) {
    const { value: current, depth, leave } = stack.pop()!;
    if (leave) {
      open.delete(leave);
      continue;
    }
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
    // A value seen twice on one path is a cycle; shared (non-cyclic) references are fine as JSON.
    if (open.has(current)) return 'not plain JSON (it refers to itself)';
    open.add(current);
    const children = Array.isArray(current) ? current : Object.values(current as Record<string, unknown>);
    if (!Array.isArray(current)) {
      for (const key of Object.keys(current as Record<string, unknown>)) chars += key.length;
      if (chars > bounds.maxChars) return `longer than ${bounds.maxChars} characters`;
    }
    stack.push({ value: undefined, depth, leave: current });
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}
